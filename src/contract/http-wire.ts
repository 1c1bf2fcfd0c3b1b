/**
 * What HTTP/1.1 carries in a header, once for the whole tree (RFC 9110 §5.1, §5.5; RFC 9112 §7):
 * the grammar of names and values, the framing and hop-by-hop headers, and the one way a header
 * given as a list becomes one text value. The stub schema, the recording rules, the recorder and the
 * routes' response step (`deviceHeaders`) all read these. Pure, any runtime; imports nothing.
 * @module
 */

/** An HTTP header name: an RFC 9110 token (what Node's `setHeader` takes). */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An HTTP header value Node sends as it is: tab and printable Latin-1, no control character (no CR, LF or NUL). */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** One character a header value cannot carry (see {@link HEADER_VALUE}). */
const NOT_SENDABLE = /[^\t\x20-\x7e\x80-\xff]/;
const NOT_SENDABLE_ALL = /[^\t\x20-\x7e\x80-\xff]/gu;

/** The headers that frame a message body: mockvideo frames every body it sends itself, so no answer of data carries them. */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding']);

/** Statuses whose answers carry no content (RFC 9110 §15.3.5, §15.3.6, §15.4.5): Node sends none, the Fetch API refuses one. */
export const BODILESS_STATUSES: readonly number[] = [204, 205, 304];

/** Headers that belong to one connection (RFC 9110 §7.6.1), never stored or passed on, plus `host`. */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authorization',
  'host',
]);

/**
 * Why `name: value` cannot be sent as a header, in one clause naming it, or `undefined` when it can:
 * a name that is no token, a value with a control character (CR, LF, NUL…) or a character above U+00FF.
 * @example headerProblem('x-a', 'one\ntwo') // '"x-a" has a control character …'
 */
export function headerProblem(name: string, value: string): string | undefined {
  // Quoted as JSON: a name with a line break still makes one line.
  if (!HEADER_NAME.test(name))
    return `${JSON.stringify(name)} is not a header name: an HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`;
  if (NOT_SENDABLE.test(value))
    return `"${name}" has a control character (CR, LF, NUL, …) or a character above U+00FF in its value, which HTTP/1.1 cannot carry`;
  return undefined;
}

/**
 * A header value as the wire can carry it: unchanged when it can (the usual case: one regular
 * expression test), else each character it cannot carry percent-encoded as UTF-8 (`日` → `%E6%97%A5`,
 * a line feed → `%0A`; a lone surrogate → `%EF%BF%BD`). Never throws.
 */
export function sendableValue(value: string): string {
  if (!NOT_SENDABLE.test(value)) return value;
  return value.replace(NOT_SENDABLE_ALL, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD';
    }
  });
}

/**
 * One header value as text: a list (repeated headers, as Node gives them) joined with `, ` (RFC 9110
 * §5.3), a number as its digits; `undefined` stays `undefined`. The one flattening of the tree;
 * `set-cookie` is the one header never flattened (RFC 6265 §3): keep its list.
 */
export function flatValue(value: string | number | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'object' ? value.join(', ') : String(value);
}
