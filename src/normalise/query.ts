/**
 * One query parameter as it appears in the URL: name and value still percent-encoded, exactly as
 * sent (`_model=Redmi%20Note%2012%20Pro%2B` → `['_model', 'Redmi%20Note%2012%20Pro%2B']`).
 */
export type RawPair = readonly [name: string, value: string];

/** A parameter name with a percent-escape or a `+` (so its decoded name differs from the text). */
const ENCODED_NAME = /(?:^|&)[^=&]*[%+]/;

/**
 * True when a parameter name of the raw query `search` (without `?`) is written with an escape or a
 * `+`: its decoded name is not its text, so a textual look at the names (`_ts=`) cannot be trusted.
 *
 * @example hasEncodedName('_region=IN&%5Fts=1') // true
 */
export function hasEncodedName(search: string): boolean {
  return ENCODED_NAME.test(search);
}

/**
 * Whether `text` has `piece` at offset `at`. A slice compared with `===` (a memory compare):
 * `startsWith(piece, at)` compares character by character once optimised, ~8 times slower for a
 * query's length (measured on Node 20).
 */
export function textAt(text: string, at: number, piece: string): boolean {
  return text.slice(at, at + piece.length) === piece;
}

/** {@link nameEnd}'s answer for a pair whose name holds `%` or `+`: only its decoded form says which parameter it is. */
export const ESCAPED_NAME = -2;

/**
 * Where the name of the pair `text[at, next)` of a raw query ends: the offset of its `=`, `-1` when
 * the pair has none, or {@link ESCAPED_NAME} when the name holds `%` or `+` (it must be decoded to
 * be read). Scans by offsets, makes no string: for the per-request query scans of findings and replay.
 */
export function nameEnd(text: string, at: number, next: number): number {
  for (let i = at; i < next; i++) {
    const c = text.charCodeAt(i);
    if (c === 61 /* = */) return i;
    if (c === 37 /* % */ || c === 43 /* + */) return ESCAPED_NAME;
  }
  return -1;
}

/**
 * Splits a raw query string (with or without the leading `?`) into `[name, value]` pairs in the
 * order sent, repeated names kept (`ref=&ref=app` → two pairs). Values stay encoded; a pair without
 * `=` has the value `''`. Never throws.
 *
 * @example splitQuery('?ref=&ref=app&x') // [['ref', ''], ['ref', 'app'], ['x', '']]
 * @see docs/contract.md#operations: `ref` is sent empty before the common `ref`, so it occurs twice.
 */
export function splitQuery(search: string): RawPair[] {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return [];
  return text.split('&').filter((part) => part !== '').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
  });
}

/**
 * Decodes one query component the way a form decoder does (`+` is a space, `%XX` a byte of UTF-8)
 * without ever throwing: a malformed `%` sequence (`%zz`, a cut-off `%E2%82`) is kept as written.
 *
 * @example decodeComponent('Redmi%20Note+12%2B') // 'Redmi Note 12+'
 * @example decodeComponent('100%') // '100%'
 */
export function decodeComponent(raw: string): string {
  // Most components (names, ids, versions) have nothing to decode.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  const text = raw.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // Decode each run of valid escapes on its own; keep whatever does not decode.
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * Splits and decodes a raw query string into `[name, value]` pairs in the order sent. Never throws,
 * even on malformed percent-encoding.
 *
 * @example parseQuery('ref=&is_from_gallery=true&ref=com.example.videoplayer')
 * // [['ref', ''], ['is_from_gallery', 'true'], ['ref', 'com.example.videoplayer']]
 */
export function parseQuery(search: string): Array<[string, string]> {
  return splitQuery(search).map(([name, value]) => [decodeComponent(name), decodeComponent(value)]);
}
