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
import { classesOf } from './classes.js';
import { exactInt64Text } from './integers.js';
import { drawOf, isOn, type FuzzDraw, type FuzzOptions } from './options.js';
import { diversionSet, recommendations } from './recommended-video.js';
import { adConfig, contentProvider, pluginEntry, settings } from './resources.js';
import { listOf } from './values.js';

/** The arbitrary of each operation's `data`, as the contract types it. @throws Error naming an unknown class. */
export function dataArbitraries(options: FuzzOptions | FuzzDraw = {}) {
  const draw = drawOf(options);
  return {
    ad_config: adConfig(draw),
    'meta/cp': listOf(contentProvider(draw), draw),
    'meta/setting': settings(draw),
    'meta/plugin': listOf(pluginEntry(draw), draw),
    'localplay/diversion': diversionSet(draw),
    'localplay/recomm': recommendations(draw),
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

/** The JSON text of an answer (see {@link answerText}) with ±2^63 as `JSON.stringify` writes them. */
function serviceText(value: unknown, escaped: boolean): string {
  const text = toServiceJson(value);
  if (!escaped) return text;
  return text
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replaceAll('/', '\\u002f')
    .replaceAll('_', '\\u005f');
}

/**
 * The JSON text of an answer: the service's (`toServiceJson`, ±2^63 written as the 64-bit bounds),
 * or, `escaped`, with every non-ASCII UTF-16 code unit, every `/` and every `_` written as a
 * `\uXXXX` escape (the same JSON value).
 */
export const answerText = (value: unknown, escaped: boolean): string => exactInt64Text(serviceText(value, escaped));

/** Whether an answer's text escapes non-ASCII: one in eight, with `json-unicode-escapes` on. */
export const escapedText = (draw: FuzzDraw): fc.Arbitrary<boolean> =>
  isOn(draw, 'json-unicode-escapes') ? fc.nat(7).map((style) => style === 0) : fc.constant(false);

/** An answer of `operation` with its `data`: the envelope, its JSON text and the edge classes it falls in. */
export function answerOf<T>(operation: OperationName, data: T, escaped: boolean) {
  const value: Envelope<T> = { data, msg: SUCCESS_MSG, result: SUCCESS_RESULT };
  const text = serviceText(value, escaped);
  const classes = classesOf(operation, data, text);
  // Only an extreme integer can be ±2^63: the others need no look for one (3.8% of the generator's CPU).
  const extreme = classes.includes('integer-extreme') || classes.includes('time-extreme');
  return { value, text: extreme ? exactInt64Text(text) : text, classes };
}

/** Whether an answer falls in none of the classes the draw switches off. */
export const noClassOff = (draw: FuzzDraw, classes: readonly string[]): boolean =>
  draw.off.size === 0 || classes.every((name) => !draw.off.has(name));

/**
 * A whole answer of `operation`: the envelope, its JSON text (one in eight with `\u` escapes for
 * non-ASCII) and the edge classes it falls in. An answer that falls in a class switched off by
 * chance (a grapheme title that mixes scripts) is drawn again.
 * @throws Error naming an unknown class.
 */
export function answerArbitrary<K extends OperationName>(
  operation: K,
  options: FuzzOptions | FuzzDraw = {},
): fc.Arbitrary<{ value: Envelope<OperationData[K]>; text: string; classes: string[] }> {
  const draw = drawOf(options);
  const data = dataArbitraries(draw)[operation] as unknown as fc.Arbitrary<OperationData[K]>;
  return fc
    .tuple(data, escapedText(draw))
    .map(([value, escaped]) => answerOf(operation, value, escaped))
    .filter((answer) => noClassOff(draw, answer.classes));
}
