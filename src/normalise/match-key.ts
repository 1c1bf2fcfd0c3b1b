import stableStringify from 'fast-json-stable-stringify';
import { ignoredBecause, type NormalisationPolicy } from './policy.js';
import { decodeComponent, type RawPair } from './query.js';

/**
 * The query parameters that take part in matching, as a multimap: name → decoded values in the
 * order sent (`ref` → `['', 'com.example.videoplayer']`). Volatile, secret and identity parameters
 * are left out.
 */
export type QueryMultimap = Record<string, string[]>;

/** Builds the matching multimap of raw pairs under `policy`. */
export function queryMultimap(pairs: readonly RawPair[], policy: NormalisationPolicy): QueryMultimap {
  // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
  const map: QueryMultimap = Object.create(null) as QueryMultimap;
  for (const [rawName, rawValue] of pairs) {
    const name = decodeComponent(rawName);
    if (ignoredBecause(policy, name)) continue;
    (map[name] ??= []).push(decodeComponent(rawValue));
  }
  return map;
}

/**
 * The match key of a request: `{ method, operation, query }` serialised with
 * fast-json-stable-stringify (sorted names; a repeated parameter keeps its values in order).
 * Two requests with the same key get the same recording.
 *
 * @example matchKey('GET', 'meta/cp', splitQuery('_nonce=1&_region=IN'), DEFAULT_POLICY)
 * // '{"method":"GET","operation":"meta/cp","query":{"_region":["IN"]}}'
 */
export function matchKey(
  method: string,
  operation: string,
  pairs: readonly RawPair[],
  policy: NormalisationPolicy,
): string {
  return matchKeyOf(method, operation, queryMultimap(pairs, policy));
}

/**
 * The match key of a request whose matching multimap is already built (see {@link queryMultimap}):
 * the same text {@link matchKey} gives for the pairs the multimap came from.
 *
 * @example matchKeyOf('GET', 'meta/cp', queryMultimap(splitQuery('_region=IN'), DEFAULT_POLICY))
 * // '{"method":"GET","operation":"meta/cp","query":{"_region":["IN"]}}'
 */
export function matchKeyOf(method: string, operation: string, query: QueryMultimap): string {
  return stableStringify({ method: method.toUpperCase(), operation, query });
}
