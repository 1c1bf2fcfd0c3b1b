import { describe, expect, it } from 'vitest';
import { clientPath } from '../../test/support/client.js';
import { OPERATION_NAMES, type OperationName } from '../contract/index.js';
import { splitQuery } from '../normalise/index.js';
import { queryFindings } from './query-findings.js';
import { requestFindings } from './request-findings.js';

const NOW = 1_795_322_072;
const uncached = (operation: OperationName, search: string, hasBody = false, now = NOW) =>
  requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds: now });
const clientSearch = (operation: OperationName) =>
  clientPath(operation)
    .split('?')[1]!
    .replace(/_ts=\d+/, `_ts=${NOW}`);

describe('queryFindings', () => {
  it('gives what requestFindings gives while the volatile values change, for remembered and fresh queries', () => {
    for (const operation of OPERATION_NAMES) {
      const search = clientSearch(operation).replace('_region=IN', '_region=india');
      for (let i = 0; i < 3; i++) {
        const changed = search.replace(/_nonce=[^&]*/, `_nonce=${-7 * i}`).replace(/_ts=\d+/, `_ts=${NOW - 3600 * i}`);
        expect(queryFindings(operation, changed, false, NOW)).toEqual(uncached(operation, changed));
        expect(queryFindings(operation, changed, false, NOW).map((f) => f.rule)).toEqual(['format']);
      }
    }
  });

  it('checks volatile values afresh: a bad _nonce or a skewed _ts after a remembered good one is found', () => {
    const search = clientSearch('meta/cp');
    expect(queryFindings('meta/cp', search, false, NOW)).toEqual([]);
    const skewed = search.replace(/_ts=\d+/, `_ts=${NOW - 3 * 86_400}`);
    expect(queryFindings('meta/cp', skewed, false, NOW).map((f) => f.rule)).toEqual(['ts-skew']);
    // The same query, remembered while the clock was near, is found skewed once the clock has moved on.
    expect(queryFindings('meta/cp', search, false, NOW + 2 * 86_400).map((f) => f.rule)).toEqual(['ts-skew']);
    expect(queryFindings('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=12a'), false, NOW)).toEqual(
      uncached('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=12a')),
    );
    expect(queryFindings('meta/cp', search.replace(/_ts=\d+/, `_ts=${NOW}000`), false, NOW).map((f) => f.rule)).toEqual(
      ['ts-skew'],
    );
  });

  it('tells the last query apart from one that differs outside its volatile values, whatever their lengths', () => {
    const search = clientSearch('meta/cp');
    expect(queryFindings('meta/cp', search, false, NOW)).toEqual([]);
    // Volatile values of other lengths: the same query.
    expect(
      queryFindings(
        'meta/cp',
        search.replace(/_nonce=[^&]*/, '_nonce=-7').replace(/_ts=\d+/, `_ts=${NOW - 5}`),
        false,
        NOW,
      ),
    ).toEqual([]);
    // A value of the same length changed next to a volatile pair, a pair moved into a volatile value, one pair more: not the same query.
    const bad = search.replace('_region=IN', '_region=I!');
    expect(queryFindings('meta/cp', bad, false, NOW)).toEqual(uncached('meta/cp', bad));
    const shifted = search.replace(/_nonce=([^&]*)&/, '_nonce=$1');
    expect(queryFindings('meta/cp', shifted, false, NOW)).toEqual(uncached('meta/cp', shifted));
    expect(queryFindings('meta/cp', `${search}&_region=IN`, false, NOW)).toEqual(
      uncached('meta/cp', `${search}&_region=IN`),
    );
    expect(queryFindings('meta/cp', search, false, NOW)).toEqual([]);
  });

  it('keeps a body and the operation apart', () => {
    const search = clientSearch('meta/setting');
    expect(queryFindings('meta/setting', search, true, NOW).map((f) => f.rule)).toEqual(['body-on-get']);
    expect(queryFindings('meta/setting', search, false, NOW)).toEqual([]);
    expect(queryFindings('localplay/recomm', search, false, NOW).length).toBeGreaterThan(0);
  });
});
