/**
 * How a stub of a scenario that `extends` another completes object-valued `data` from its parent:
 * objects are merged key by key (recursively), everything else (arrays, strings, numbers) is
 * replaced. An empty object given as the whole `data` stays empty: it is how the seed says "no ad
 * configuration applies". No zod: the catalog runs it.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import type { Stub, StubResponse } from './format.js';

/** The operations whose `data` is a JSON object, which a stub may give in part: ad config, runtime settings, the diversion set. */
export const OBJECT_DATA_OPERATIONS: readonly OperationName[] = ['ad_config', 'meta/setting', 'localplay/diversion'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(parent: unknown, own: unknown): unknown {
  if (!isObject(parent) || !isObject(own)) return own;
  const merged: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(own)) merged[key] = key in parent ? merge(parent[key], value) : value;
  return merged;
}

/**
 * `own` data completed from `parent` data: objects merged key by key, arrays and other values
 * replaced; `{}` as the whole of `own` stays `{}`.
 *
 * @example inheritData({ codec_level: '3', language_switch: 1 }, { language_switch: 0 }) // { codec_level: '3', language_switch: 0 }
 * @example inheritData({ end: [a], exit: [a] }, { end: [] }) // { end: [], exit: [a] }
 */
function inheritData(parent: unknown, own: unknown): unknown {
  if (isObject(own) && Object.keys(own).length === 0) return own;
  return merge(parent, own);
}

/**
 * `stubs` with every response's `data` completed (see {@link inheritData}) from the data of the
 * parent's first stub (for a sequence, its first response's); responses without data stay as they are.
 */
export function inheritStubData(stubs: readonly Stub[], parentStubs: readonly Stub[] | undefined): Stub[] {
  const first = parentStubs?.[0];
  const parent = first?.sequence ? first.sequence[0]?.data : first?.data;
  const complete = <R extends StubResponse>(response: R): R =>
    response.data === undefined ? response : { ...response, data: inheritData(parent, response.data) };
  return stubs.map((stub) => (stub.sequence ? { ...stub, sequence: stub.sequence.map(complete) } : complete(stub)));
}
