/**
 * The arbitraries of each operation's `data`, of the envelope, and of a whole answer text: the
 * envelope in the service's JSON text (`&` as `\u0026`), sometimes with every non-ASCII character
 * written as a `\u` escape too (class `json-unicode-escapes`). Any runtime.
 * @module
 */
import fc from 'fast-check';
import { SUCCESS_MSG, SUCCESS_RESULT, type Envelope } from '../contract/envelope.js';
import { toServiceJson } from '../contract/json-text.js';
import type { OperationName } from '../contract/operation-table.js';
import { listOf, type FuzzOptions } from './values.js';
import { diversionSet, recommendations } from './recommended-video.js';
import { adConfig, contentProvider, pluginEntry, settings } from './resources.js';

/** The arbitrary of each operation's `data`, as the contract types it. */
export function dataArbitraries(options: FuzzOptions = {}) {
  return {
    ad_config: adConfig(),
    'meta/cp': listOf(contentProvider(options)),
    'meta/setting': settings(),
    'meta/plugin': listOf(pluginEntry(options)),
    'localplay/diversion': diversionSet(options),
    'localplay/recomm': recommendations(options),
  } as const;
}

/** The `data` type of each operation. */
export type OperationData = {
  [K in OperationName]: ReturnType<typeof dataArbitraries>[K] extends fc.Arbitrary<infer T> ? T : never;
};

/** The success envelope `{ data, msg: "OK", result: 1 }` around a `data` arbitrary. @see docs/contract.md#envelope. */
export function envelope<T>(data: fc.Arbitrary<T>): fc.Arbitrary<Envelope<T>> {
  return data.map((value) => ({ data: value, msg: SUCCESS_MSG, result: SUCCESS_RESULT }));
}

/**
 * The JSON text of an answer: the service's (`toServiceJson`), or, `escaped`, with every non-ASCII
 * UTF-16 code unit, every `/` and every `_` written as a `\uXXXX` escape (the same JSON value).
 */
export function answerText(value: unknown, escaped: boolean): string {
  const text = toServiceJson(value);
  if (!escaped) return text;
  return text
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replaceAll('/', '\\u002f')
    .replaceAll('_', '\\u005f');
}

/** A whole answer of `operation`: the envelope and its JSON text (one in eight with `\u` escapes for non-ASCII). */
export function answerArbitrary<K extends OperationName>(
  operation: K,
  options: FuzzOptions = {},
): fc.Arbitrary<{ value: Envelope<OperationData[K]>; text: string }> {
  const data = dataArbitraries(options)[operation] as unknown as fc.Arbitrary<OperationData[K]>;
  return fc.tuple(envelope(data), fc.nat(7)).map(([value, style]) => ({ value, text: answerText(value, style === 0) }));
}
