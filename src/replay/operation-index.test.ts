import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, decodeComponent, ignoredBecause, queryMultimap, type RawPair } from '../normalise/index.js';
import { OperationIndex } from './operation-index.js';

/** The decoded name of a raw one, `undefined` when the default policy leaves it out of matching: as `queryMultimap` decides. */
const nameOf = (rawName: string) => {
  const name = decodeComponent(rawName);
  return ignoredBecause(DEFAULT_POLICY, name) ? undefined : name;
};

// Names that decode to one another (`r%65f` is `ref`, `_n%6Fnce` the volatile `_nonce`), repeated
// names (`ref` twice, as the client sends it), values with escapes and `+`, and names left out.
const name = fc.constantFrom('_region', '_model', 'ref', 'r%65f', 'x', 'a+b', '_nonce', '_n%6Fnce', '_st', '7', '__proto__');
const value = fc.oneof({ arbitrary: fc.constant('IN'), weight: 4 }, { arbitrary: fc.constantFrom('', '0', 'a+b', 'a%20b', '%C3%BF', '%FF', 'IN'), weight: 3 });
const SCHEMAS = [['ref', '_region', 'ref', '_nonce'], ['_region', '_model', '_st'], ['_region', 'x', '7']];
const schemaPairs = fc.constantFrom(...SCHEMAS).chain((names) => fc.tuple(...names.map((n) => value.map((v): RawPair => [n, v]))));
const pairs = fc.oneof({ arbitrary: schemaPairs, weight: 3 }, { arbitrary: fc.array(fc.tuple(name, value), { maxLength: 8 }) as fc.Arbitrary<RawPair[]>, weight: 2 });
const folder = fc.array(fc.tuple(pairs, fc.constantFrom('GET', 'GET', 'POST')), { maxLength: 50 });

describe('OperationIndex.addPairs (loading raw pairs, no multimap)', () => {
  it('builds the same index as add with the query multimap: same positions, keys, queries, lookups and nearest keys', () => {
    fc.assert(
      fc.property(folder, fc.array(pairs, { maxLength: 6 }), (requests, lookups) => {
        const byMultimap = new OperationIndex('meta/cp');
        const byPairs = new OperationIndex('meta/cp');
        requests.forEach(([query, method], recording) => {
          expect(byPairs.addPairs(method, query, nameOf, recording)).toBe(byMultimap.add(method, queryMultimap(query, DEFAULT_POLICY), recording));
        });
        expect(byPairs.keyCount).toBe(byMultimap.keyCount);
        for (let position = 0; position < byMultimap.keyCount; position++) {
          expect(byPairs.queryOf(position)).toEqual(byMultimap.queryOf(position));
          expect(byPairs.methodOf(position)).toBe(byMultimap.methodOf(position));
          expect(byPairs.recordingsOf(position)).toEqual(byMultimap.recordingsOf(position));
        }
        for (const query of [...requests.map(([q]) => q), ...lookups]) {
          const requested = queryMultimap(query, DEFAULT_POLICY);
          expect(byPairs.find('GET', requested)).toBe(byMultimap.find('GET', requested));
          expect(byPairs.closest(requested, 3)).toEqual(byMultimap.closest(requested, 3));
          expect(byPairs.closest(requested, Infinity)).toEqual(byMultimap.closest(requested, Infinity));
        }
      }),
      { numRuns: 300 },
    );
  });
});
