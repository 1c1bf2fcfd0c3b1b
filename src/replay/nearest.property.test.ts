import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../contract/index.js';
import {
  DEFAULT_POLICY,
  matchKey,
  queryMultimap,
  queryValues,
  type NamedRecording,
  type QueryMultimap,
  type RawPair,
  type Recording,
} from '../normalise/index.js';
import { closest, type Difference } from './near-miss.js';
import { RecordingIndex } from './recording-index.js';

/**
 * The definition of a difference (docs/record-replay.md, the near-miss report), kept as the oracle: each
 * parameter, by name, whose values differ in value or order; `null` for an absent one, a value sent
 * once as such, a repeated one as its list.
 */
function differencesOf(recorded: QueryMultimap, requested: QueryMultimap): Difference[] {
  const shown = (values: string[] | undefined) =>
    values === undefined ? null : values.length === 1 ? values[0]! : values;
  return [...new Set([...Object.keys(recorded), ...Object.keys(requested)])]
    .sort()
    .filter((name) => JSON.stringify(recorded[name]) !== JSON.stringify(requested[name]))
    .map((parameter) => ({ parameter, recorded: shown(recorded[parameter]), requested: shown(requested[parameter]) }));
}

/**
 * The definition of "closest" before the index had a nearest search, kept as the oracle: every
 * match key of the operation (its first recording, in the order given), ranked by the number of
 * differing parameters, ties in that order. Linear in the recordings; computed from the recordings
 * themselves, not from the index.
 */
function linearClosest(
  recordings: readonly NamedRecording[],
  operation: OperationName,
  requested: QueryMultimap,
  limit: number,
): Array<{ name: string; differences: Difference[] }> {
  const seen = new Set<string>();
  const ranked: Array<{ name: string; differences: Difference[] }> = [];
  for (const { name, recording } of recordings) {
    if (recording.operation !== operation) continue;
    const key = matchKey(recording.request.method, operation, recording.request.query, DEFAULT_POLICY);
    if (seen.has(key)) continue;
    seen.add(key);
    ranked.push({
      name,
      differences: differencesOf(queryMultimap(recording.request.query, DEFAULT_POLICY), requested),
    });
  }
  ranked.sort((a, b) => a.differences.length - b.differences.length);
  return ranked.slice(0, limit);
}

const OPERATIONS: OperationName[] = ['meta/cp', 'meta/setting'];
const PATHS: Record<string, string> = { 'meta/cp': '/api/g1/meta/cp', 'meta/setting': '/api/g1/meta/setting' };

// Few names and values, skewed towards one value, so keys share most pairs (as real folders do),
// both sides of each inverted index get walked, and name sets differ (several name groups).
const name = fc.constantFrom('_region', '_model', '_uspace', 'ref', 'is_from_gallery', 'x', '_nonce', '_st');
const value = fc.oneof(
  { arbitrary: fc.constant('IN'), weight: 4 },
  { arbitrary: fc.constantFrom('', '0', '1', 'a+b', 'a%20b', 'DE', '%C3%BF', '%FF'), weight: 3 },
);
const anyPairs = fc.array(fc.tuple(name, value), { maxLength: 9 }) as fc.Arbitrary<RawPair[]>;
// Most queries follow one of a few name lists (a client sends the same parameters every time), so
// name groups hold many keys; some are free-form.
const SCHEMAS = [
  ['_region', '_model', '_uspace', '_nonce'],
  ['ref', '_region', 'is_from_gallery', 'ref', '_uspace', '_st'],
  ['_region', 'x'],
];
const schemaPairs = fc
  .constantFrom(...SCHEMAS)
  .chain((names) => fc.tuple(...names.map((n) => value.map((v): RawPair => [n, v]))));
const pairs = fc.oneof({ arbitrary: schemaPairs, weight: 3 }, { arbitrary: anyPairs, weight: 1 });
const operation = fc.constantFrom(...OPERATIONS);

function recordingOf(op: OperationName, query: RawPair[], method = 'GET'): Recording {
  return {
    operation: op,
    matchKey: matchKey(method, op, query, DEFAULT_POLICY),
    recordedAt: '2026-01-01T00:00:00.000Z',
    request: { method, path: PATHS[op]!, query, headers: {} },
    response: { status: 200, headers: {}, body: '' },
  };
}

const folder = fc
  .array(fc.tuple(operation, pairs, fc.constantFrom('GET', 'GET', 'GET', 'POST')), { maxLength: 60 })
  .map((list) =>
    list.map(([op, query, method], i): NamedRecording => ({
      name: `r${String(i).padStart(3, '0')}`,
      recording: recordingOf(op, query, method),
    })),
  );

describe('nearest search of the index', () => {
  it('ranks like the linear definition: same recordings, same differences, same order (limits 1, 3, all)', () => {
    fc.assert(
      fc.property(folder, fc.nat(80), operation, pairs, (recordings, split, op, request) => {
        // Some recordings given at construction, the rest added one by one (as --record-missing does).
        const index = new RecordingIndex(recordings.slice(0, split), DEFAULT_POLICY);
        for (const recording of recordings.slice(split)) index.add(recording);
        const requested = queryMultimap(request, DEFAULT_POLICY);
        for (const limit of [1, 3, Infinity]) {
          const indexed = closest(index, op, requested, limit).map(({ entry, differences: d }) => ({
            name: entry.name,
            differences: d,
          }));
          expect(indexed).toEqual(linearClosest(recordings, op, requested, limit));
        }
      }),
    );
  });

  it('finds the exact key of a recorded request, and only that', () => {
    fc.assert(
      fc.property(folder, fc.nat(59), (recordings, pick) => {
        fc.pre(recordings.length > 0);
        const index = new RecordingIndex(recordings, DEFAULT_POLICY);
        const { recording } = recordings[pick % recordings.length]!;
        const key = matchKey(recording.request.method, recording.operation, recording.request.query, DEFAULT_POLICY);
        const expected = recordings
          .filter(
            (r) =>
              r.recording.operation === recording.operation &&
              matchKey(r.recording.request.method, r.recording.operation, r.recording.request.query, DEFAULT_POLICY) ===
                key,
          )
          .map((r) => r.name);
        const found = index.find(recording.request.method, recording.operation, queryValues(recording.request.query));
        expect(found?.map((entry) => entry.name)).toEqual(expected);
        expect(found?.[0]?.key).toBe(key);
      }),
    );
  });

  it('rebuilds the match key and query of every recording from the compact index', () => {
    fc.assert(
      fc.property(folder, (recordings) => {
        const index = new RecordingIndex(recordings, DEFAULT_POLICY);
        for (const { name, recording } of recordings) {
          const { method, query } = recording.request;
          const entry = index.find(method, recording.operation, queryValues(query))?.find((e) => e.name === name);
          expect(entry).toBeDefined();
          expect(entry!.key).toBe(
            matchKey(recording.request.method, recording.operation, recording.request.query, DEFAULT_POLICY),
          );
          expect(entry!.query).toEqual(queryMultimap(recording.request.query, DEFAULT_POLICY));
        }
      }),
    );
  });

  it('ranks over thousands of keys like the linear definition (long inverted-index lists, walked on both sides)', () => {
    // The shape of a large recorded folder: most parameters equal everywhere, `_uspace` different
    // almost everywhere, `_model` rare on one value, `is_from_gallery` on a third of the keys and
    // split 60/40: hundreds of keys behind one pair, walked on either side.
    const recordings = Array.from({ length: 3000 }, (_, i): NamedRecording => {
      const query: RawPair[] = [
        ['_region', 'IN'],
        ['_model', i % 10 === 0 ? 'B' : 'A'],
        ['ref', ''],
        ['ref', 'app'],
        ['_uspace', String(i % 2500)],
      ];
      if (i % 3 === 0) query.push(['is_from_gallery', i % 5 < 3 ? 'true' : 'false']);
      return { name: `r${i}`, recording: recordingOf('meta/cp', query) };
    });
    const index = new RecordingIndex(recordings, DEFAULT_POLICY);
    const requests: RawPair[][] = [
      [
        ['_region', 'IN'],
        ['_model', 'A'],
        ['ref', ''],
        ['ref', 'app'],
        ['_uspace', 'unknown'],
      ],
      [
        ['_region', 'IN'],
        ['_model', 'B'],
        ['_uspace', '1234'],
      ],
      [
        ['_model', 'B'],
        ['is_from_gallery', 'true'],
        ['_uspace', 'x'],
      ],
      [
        ['_region', 'DE'],
        ['is_from_gallery', 'false'],
        ['_uspace', '7'],
      ],
      [],
    ];
    for (const request of requests) {
      const requested = queryMultimap(request, DEFAULT_POLICY);
      for (const limit of [1, 3]) {
        expect(
          closest(index, 'meta/cp', requested, limit).map(({ entry, differences: d }) => ({
            name: entry.name,
            differences: d,
          })),
        ).toEqual(linearClosest(recordings, 'meta/cp', requested, limit));
      }
    }
  });
});
