import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../test/support/fast-check.js';
import { clientPath } from '../../test/support/client.js';
import { OPERATION_NAMES, type OperationName } from '../contract/index.js';
import { splitQuery } from '../normalise/index.js';
import { MAX_REMEMBERED_QUERIES, keyedQueryFindings, queryFindings, volatileFreeQuery } from './query-findings.js';
import { requestFindings } from './request-findings.js';

const NOW = 1_795_322_072;
const uncached = (operation: OperationName, search: string, hasBody = false, now = NOW) => requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds: now });
const clientSearch = (operation: OperationName) => clientPath(operation).split('?')[1]!.replace(/_ts=\d+/, `_ts=${NOW}`);

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
    expect(queryFindings('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=12a'), false, NOW)).toEqual(uncached('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=12a')));
    expect(queryFindings('meta/cp', search.replace(/_ts=\d+/, `_ts=${NOW}000`), false, NOW).map((f) => f.rule)).toEqual(['ts-skew']);
  });

  it('tells the last query apart from one that differs outside its volatile values, whatever their lengths', () => {
    const search = clientSearch('meta/cp');
    expect(queryFindings('meta/cp', search, false, NOW)).toEqual([]);
    // Volatile values of other lengths: the same query.
    expect(queryFindings('meta/cp', search.replace(/_nonce=[^&]*/, '_nonce=-7').replace(/_ts=\d+/, `_ts=${NOW - 5}`), false, NOW)).toEqual([]);
    // A value of the same length changed next to a volatile pair, a pair moved into a volatile value, one pair more: not the same query.
    const bad = search.replace('_region=IN', '_region=I!');
    expect(queryFindings('meta/cp', bad, false, NOW)).toEqual(uncached('meta/cp', bad));
    const shifted = search.replace(/_nonce=([^&]*)&/, '_nonce=$1');
    expect(queryFindings('meta/cp', shifted, false, NOW)).toEqual(uncached('meta/cp', shifted));
    expect(queryFindings('meta/cp', `${search}&_region=IN`, false, NOW)).toEqual(uncached('meta/cp', `${search}&_region=IN`));
    expect(queryFindings('meta/cp', search, false, NOW)).toEqual([]);
  });

  it('keeps a body and the operation apart, and answers frozen arrays', () => {
    const search = clientSearch('meta/setting');
    expect(queryFindings('meta/setting', search, true, NOW).map((f) => f.rule)).toEqual(['body-on-get']);
    expect(queryFindings('meta/setting', search, false, NOW)).toEqual([]);
    expect(queryFindings('localplay/recomm', search, false, NOW).length).toBeGreaterThan(0);
    const findings = queryFindings('meta/setting', search, true, NOW);
    expect(Object.isFrozen(findings) && Object.isFrozen(findings[0])).toBe(true);
  });

  it('still answers right after forgetting (more distinct queries than it remembers)', () => {
    const search = clientSearch('meta/cp');
    for (let i = 0; i <= MAX_REMEMBERED_QUERIES; i++) queryFindings('meta/cp', search.replace('_uspace=0', `_uspace=${i}`), false, NOW);
    const bad = search.replace('_region=IN', '_region=x');
    expect(queryFindings('meta/cp', bad, false, NOW)).toEqual(uncached('meta/cp', bad));
  });

  it('finds the volatile pairs only where a name starts, and escapes only in names, when it remembers a query', () => {
    const search = clientSearch('meta/cp');
    const cases = [
      `${search}&ref=x_ts=1&note=a_nonce=b`, // `_ts=` and `_nonce=` inside values: not volatile pairs
      `${search}&a=b=%5Fts&c=d+e`, // `%` and `+` in values (after an `=`): not escaped names
      `${search}&%5Fts=${NOW}`, // an escaped name: checked in full
      `${search}&_n%6Fnce=1&x+y=2`, // escaped names with `%` and `+`
      `${search}&%5Fts`, // an escaped name without a value
      `${search}&_nonce=7&_ts=${NOW - 60}`, // the volatile pairs twice
      `_ts=${NOW}&${search}`, // a volatile pair first
    ];
    for (const query of cases) {
      for (let i = 0; i < 2; i++) expect(queryFindings('meta/cp', query, false, NOW), query).toEqual(uncached('meta/cp', query));
      const changed = query.replace(/(^|&)_nonce=[^&]*/g, '$1_nonce=-3').replace(/(^|&)_ts=\d+/g, `$1_ts=${NOW + 1}`);
      expect(queryFindings('meta/cp', changed, false, NOW), changed).toEqual(uncached('meta/cp', changed));
    }
  });

  it('equals requestFindings for any query: repeated, encoded, empty or malformed volatile pairs (property)', () => {
    const name = fc.constantFrom('_nonce', '_ts', '%5Fts', '_n+once', 'ref', '_region', '_st', '');
    const value = fc.oneof(fc.constantFrom('', '12', '-3', '1e3', `${NOW}`, `${NOW - 90_000}`, `${NOW}000`, '%31%32', '+1', 'IN'), fc.string({ maxLength: 4 }));
    const pair = fc.oneof(fc.tuple(name, value).map(([n, v]) => `${n}=${v}`), name);
    fc.assert(
      fc.property(fc.constantFrom(...OPERATION_NAMES), fc.array(pair, { maxLength: 8 }), fc.boolean(), fc.boolean(), (operation, pairs, withClient, hasBody) => {
        const search = [...(withClient ? [clientSearch(operation)] : []), ...pairs].join('&');
        // Twice: the second answer may come from what the first remembered.
        expect(queryFindings(operation, search, hasBody, NOW)).toEqual(uncached(operation, search, hasBody));
        expect(queryFindings(operation, search, hasBody, NOW)).toEqual(uncached(operation, search, hasBody));
        // With the key made once per request (replay), from a fresh memo or what queryFindings remembered.
        expect(keyedQueryFindings(operation, search, hasBody, NOW, volatileFreeQuery(search, NOW))).toEqual(uncached(operation, search, hasBody));
        expect(keyedQueryFindings(operation, search, !hasBody, NOW, volatileFreeQuery(search, NOW))).toEqual(uncached(operation, search, !hasBody));
      }),
    );
  });

  it('volatileFreeQuery: the query without its well-formed _nonce and _ts values; undefined for a malformed one or an escaped name', () => {
    expect(volatileFreeQuery(`_region=IN&_nonce=-42&x=1&_ts=${NOW - 5}`, NOW)).toBe('_region=IN&_nonce=&x=1&_ts=');
    expect(volatileFreeQuery('_region=IN', NOW)).toBe('_region=IN');
    expect(volatileFreeQuery('_nonce=1a', NOW)).toBeUndefined();
    expect(volatileFreeQuery(`_ts=${NOW - 3 * 86_400}`, NOW)).toBeUndefined();
    expect(volatileFreeQuery('%5Fregion=IN', NOW)).toBeUndefined();
  });

  it('keyedQueryFindings: the same findings as requestFindings over many rotating queries, and a _ts the clock has left behind is found', () => {
    for (const operation of OPERATION_NAMES) {
      for (let i = 0; i < 40; i++) {
        const search = clientSearch(operation).replace('_uspace=0', `_uspace=${i % 7 === 0 ? 'x' : i}`).replace(/_nonce=[^&]*/, `_nonce=${i}`);
        expect(keyedQueryFindings(operation, search, false, NOW, volatileFreeQuery(search, NOW))).toEqual(uncached(operation, search));
      }
    }
    // Remembered while the clock was near; once it has moved on, the key is not made and _ts is found skewed.
    const search = clientSearch('meta/cp');
    expect(keyedQueryFindings('meta/cp', search, false, NOW, volatileFreeQuery(search, NOW))).toEqual([]);
    const later = NOW + 3 * 86_400;
    expect(keyedQueryFindings('meta/cp', search, false, later, volatileFreeQuery(search, later)).map((f) => f.rule)).toEqual(['ts-skew']);
  });
});
