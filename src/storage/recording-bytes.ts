/**
 * Parsing a recording file from its bytes when its response body is not wanted: `replay` of a
 * large folder reads every file to check it and index its request, and keeps no body of a folder
 * that does not fit its response cache (the body is read from the file again when served).
 *
 * A recording file is UTF-8 JSON. Decoding non-ASCII bytes makes a two-byte string, which
 * `JSON.parse` reads about twice as slowly as a one-byte one, and decoding itself is the slow part
 * of reading such a file: the bench's folder of 100,000 recordings holds two operations whose
 * bodies have non-ASCII text (files of 13.6 and 7.8 KB: 28 and 16 µs of CPU each to decode and
 * parse; 18 and 12 µs read as below).
 *
 * So such a file is parsed as Latin-1 text (one character per byte). That accepts exactly the
 * texts the UTF-8 reading accepts (bytes of 0x80 or more are allowed only inside strings, by either
 * reading), and every string of the value made only of ASCII characters is the same in both
 * readings (an escape of a character beyond ASCII gives one beyond ASCII in both). When every
 * string but the response body is ASCII, the value is the UTF-8 reading's, except its body, a
 * string still in both; otherwise the file is read as UTF-8.
 * @module
 */
import { isAscii } from 'node:buffer';

/** What {@link parseRecordingBytes} gives. */
export interface ParsedRecordingBytes {
  /** The parsed value, as `JSON.parse` of the UTF-8 text gives it, except the body when `bodyUndecoded`. */
  value: unknown;
  /** True when `value.response.body` is a string, but not the body's text (its bytes read as Latin-1): do not use it. */
  bodyUndecoded: boolean;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The value of the UTF-8 JSON text in `bytes`, as `JSON.parse(bytes.toString('utf8'))` gives it;
 * with `bodyWanted` false, a response body with non-ASCII text may be left undecoded (see
 * {@link ParsedRecordingBytes}).
 * @throws SyntaxError when the text is not JSON (as `JSON.parse` of the UTF-8 text throws it).
 */
export function parseRecordingBytes(bytes: Buffer, bodyWanted: boolean): ParsedRecordingBytes {
  // ASCII reads the same as Latin-1 and as UTF-8.
  if (isAscii(bytes)) return { value: JSON.parse(bytes.toString('latin1')), bodyUndecoded: false };
  if (!bodyWanted) {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('latin1'));
    } catch {
      // Not JSON in either reading: the UTF-8 reading below throws the error, quoting the text as it is.
    }
    if (value !== undefined) {
      const response = isPlainObject(value) ? value.response : undefined;
      const body = isPlainObject(response) && typeof response.body === 'string' ? response.body : undefined;
      if (isAsciiBut(value, body)) return { value, bodyUndecoded: body !== undefined };
    }
  }
  return { value: JSON.parse(bytes.toString('utf8')), bodyUndecoded: false };
}

/** True when every string and key in `value` is ASCII, leaving out the string `body` of `value.response`. */
function isAsciiBut(value: unknown, body: string | undefined, depth = 0): boolean {
  if (typeof value === 'string') return !NON_ASCII.test(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every((item) => isAsciiBut(item, undefined, depth + 1));
  for (const key in value) {
    if (NON_ASCII.test(key)) return false;
    const item = (value as Record<string, unknown>)[key];
    // Only the response's body is left out: at depth 1, under the top's "response".
    if (depth === 1 && key === 'body' && item === body) continue;
    if (!isAsciiBut(item, depth === 0 && key === 'response' ? body : undefined, depth + 1)) return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
