import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, decodeComponent, ignoredBecause, queryMultimap, type RawPair } from '../normalise/index.js';
import { buffersOf } from './compact.js';
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

/** `actual` has the keys of `expected` (positions, queries, methods, recordings) and answers `queries` as it does. */
function expectSameIndex(actual: OperationIndex, expected: OperationIndex, queries: readonly RawPair[][]): void {
  expect(actual.keyCount).toBe(expected.keyCount);
  for (let position = 0; position < expected.keyCount; position++) {
    expect(actual.queryOf(position)).toEqual(expected.queryOf(position));
    expect(actual.methodOf(position)).toBe(expected.methodOf(position));
    expect(actual.recordingsOf(position)).toEqual(expected.recordingsOf(position));
  }
  for (const query of queries) {
    const requested = queryMultimap(query, DEFAULT_POLICY);
    expect(actual.find('GET', requested)).toBe(expected.find('GET', requested));
    expect(actual.closest(requested, 3)).toEqual(expected.closest(requested, 3));
    expect(actual.closest(requested, Infinity)).toEqual(expected.closest(requested, Infinity));
  }
}

describe('OperationIndex.addPairs (loading raw pairs, no multimap)', () => {
  it('builds the same index as add with the query multimap: same positions, keys, queries, lookups and nearest keys', () => {
    fc.assert(
      fc.property(folder, fc.array(pairs, { maxLength: 6 }), (requests, lookups) => {
        const byMultimap = new OperationIndex('meta/cp');
        const byPairs = new OperationIndex('meta/cp');
        requests.forEach(([query, method], recording) => {
          expect(byPairs.addPairs(method, query, nameOf, recording)).toBe(byMultimap.add(method, queryMultimap(query, DEFAULT_POLICY), recording));
        });
        expectSameIndex(byPairs, byMultimap, [...requests.map(([q]) => q), ...lookups]);
      }),
      { numRuns: 300 },
    );
  });
});

/** `data` copied as `postMessage` copies it to another thread, its typed arrays' buffers transferred. */
const copiedAcrossThreads = <T>(data: T): T => structuredClone(data, { transfer: buffersOf(data) });

describe('OperationIndex.data and OperationIndex.of (an index made in another thread)', () => {
  it('gives an index that answers as the one it was made from, and goes on growing as it would have', () => {
    fc.assert(
      fc.property(folder, fc.nat(50), fc.array(pairs, { maxLength: 6 }), (requests, cut, lookups) => {
        const whole = new OperationIndex('meta/cp');
        requests.forEach(([query, method], recording) => whole.addPairs(method, query, nameOf, recording));
        const first = new OperationIndex('meta/cp');
        const at = Math.min(cut, requests.length);
        requests.slice(0, at).forEach(([query, method], recording) => first.addPairs(method, query, nameOf, recording));
        const made = OperationIndex.of(copiedAcrossThreads(first.data()));
        requests.slice(at).forEach(([query, method], i) => made.addPairs(method, query, nameOf, at + i));
        expectSameIndex(made, whole, [...requests.map(([q]) => q), ...lookups]);
        // Made again from a made index: the same.
        expectSameIndex(OperationIndex.of(copiedAcrossThreads(made.data())), whole, lookups);
      }),
      { numRuns: 300 },
    );
  });
});
