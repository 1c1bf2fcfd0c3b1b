import { describe, expect, it } from 'vitest';
import { clientPath } from '../../test/support/client.js';
import { OPERATION_NAMES, type OperationName } from '../contract/index.js';
import { queryValues } from '../normalise/index.js';
import { requestFindings } from './request-findings.js';

const NOW = 1_795_322_072;
const clientSearch = (operation: OperationName) =>
  clientPath(operation)
    .split('?')[1]!
    .replace(/_ts=\d+/, `_ts=${NOW}`);
// What the routes check of a request (`createRoutes`): the findings of its raw query's decoded values.
const rulesOf = (operation: OperationName, search: string, hasBody = false, nowSeconds = NOW) =>
  requestFindings({ operation, query: queryValues(search), hasBody, nowSeconds }).map((f) => [f.parameter, f.rule]);

describe('the findings of a raw query string', () => {
  it("reads a raw query string, with or without `?`: nothing in the client's requests, a bad value named", () => {
    for (const operation of OPERATION_NAMES) {
      const search = clientSearch(operation);
      expect(rulesOf(operation, search)).toEqual([]);
      expect(rulesOf(operation, `?${search}`)).toEqual([]);
      expect(rulesOf(operation, search.replace('_region=IN', '_region=india'))).toEqual([['_region', 'format']]);
    }
  });

  it('checks _nonce and _ts on every request, against the clock it is given', () => {
    const search = clientSearch('meta/cp');
    expect(rulesOf('meta/cp', search.replace(/_ts=\d+/, `_ts=${NOW - 3 * 86_400}`))).toEqual([['_ts', 'ts-skew']]);
    expect(rulesOf('meta/cp', search, false, NOW + 2 * 86_400)).toEqual([['_ts', 'ts-skew']]);
    expect(rulesOf('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=12a'))).toEqual([['_nonce', 'format']]);
    expect(rulesOf('meta/cp', search.replace(/_ts=\d+/, `_ts=${NOW}000`))).toEqual([['_ts', 'ts-skew']]);
    expect(rulesOf('meta/cp', `${search}&_region=IN`)).toEqual([['_region', 'repeated-parameter']]);
  });

  it('keeps a body and the operation apart', () => {
    const search = clientSearch('meta/setting');
    expect(rulesOf('meta/setting', search, true)).toEqual([['', 'body-on-get']]);
    expect(rulesOf('meta/setting', search)).toEqual([]);
    expect(rulesOf('localplay/recomm', search).length).toBeGreaterThan(0);
  });
});
