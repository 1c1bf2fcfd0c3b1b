/**
 * The forms a secret value takes when a service echoes it: raw, percent-encoded, JSON-escaped,
 * base64 and hex. Each value becomes one regular expression that finds all of them at once.
 * Pure: runs in any runtime.
 * @module
 */

/** Values shorter than this (in characters) are never searched for as text: only under their own name. */
export const MIN_SCANNED_LENGTH = 8;

/** How a found occurrence was written. */
export type SecretEncoding = 'raw' | 'percent' | 'json-escape' | 'base64' | 'base64url' | 'hex';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex digit matched in either case: `a` → `[aA]`. */
const hexDigit = (digit: string) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);
const hexPattern = (hex: string) => [...hex].map(hexDigit).join('');

const utf8 = new TextEncoder();
/** JSON's short escapes, after one or more backslashes (JSON text inside a JSON string escapes its escapes). */
const SHORT_JSON_ESCAPES: Record<string, string> = { '"': '\\\\+"', '\\': '\\\\{2,}', '/': '\\\\+/', '\b': '\\\\+b', '\f': '\\\\+f', '\n': '\\\\+n', '\r': '\\\\+r', '\t': '\\\\+t' };

/**
 * The alternatives for one character: itself (its UTF-8 bytes as Latin-1 characters in `binary`
 * mode), its percent-escapes in either hex case (and `+` for a space), its JSON escapes (`\uXXXX` in
 * either case, the short ones, `\/`).
 */
function characterPattern(ch: string, binary: boolean): string {
  const bytes = utf8.encode(ch);
  const literal = binary ? String.fromCharCode(...bytes) : ch;
  const alternatives = [escapeRegex(literal), [...bytes].map((b) => `%${hexPattern(b.toString(16).padStart(2, '0'))}`).join('')];
  const units = [...Array(ch.length).keys()].map((i) => `\\\\+[uU]${hexPattern(ch.charCodeAt(i).toString(16).padStart(4, '0'))}`).join('');
  alternatives.push(units);
  const short = SHORT_JSON_ESCAPES[ch];
  if (short) alternatives.push(short);
  if (ch === ' ') alternatives.push('\\+');
  return `(?:${alternatives.join('|')})`;
}

/** A pattern for `text` written in any mix of raw, percent-encoded and JSON-escaped characters. */
function textPattern(text: string, binary: boolean): string {
  return [...text].map((ch) => characterPattern(ch, binary)).join('');
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Base64 forms of the bytes: the whole value (padded and not), and the characters that stay the
 * same wherever the value sits inside a larger base64 text (each of the three byte alignments).
 */
function base64Forms(bytes: Uint8Array): string[] {
  const standard = base64Of(bytes);
  const forms = [standard, standard.replace(/=+$/, '')];
  for (let skip = 0; skip < 3 && bytes.length - skip >= 6; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    forms.push(base64Of(bytes.subarray(skip, skip + whole)));
  }
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCANNED_LENGTH);
}

const toUrlSafe = (form: string) => form.replace(/\+/g, '-').replace(/\//g, '_');

/** A value ready to be searched for: one global pattern whose capture groups tell the encoding. */
export interface SecretPattern {
  /** Groups: 1 raw/percent/JSON, 2 base64, 3 base64url, 4 hex. */
  readonly regex: RegExp;
}

function compile(value: string, binary: boolean): SecretPattern {
  const bytes = utf8.encode(value);
  const byLength = (a: string, b: string) => b.length - a.length;
  const b64 = base64Forms(bytes).sort(byLength);
  const b64url = [...new Set(b64.map(toUrlSafe))].filter((form) => !b64.includes(form));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  const group = (forms: string[]) => (forms.length ? `(${forms.map((form) => textPattern(form, binary)).join('|')})` : '((?!))');
  const source = [`(${textPattern(value, binary)})`, group(b64), group(b64url), `(${hexPattern(hex)})`].join('|');
  return { regex: new RegExp(source, 'g') };
}

const MAX_KEPT = 64;
const kept = new Map<string, SecretPattern>();

/**
 * The pattern of a secret value (remembered: a client sends the same token with every request).
 * It matches the value raw; percent-encoded in either hex case, with `+` for a space; JSON-escaped
 * (`\/`, any `\uXXXX` in either case, Gson's `\u003d`), in any mix; its base64 (standard and
 * URL-safe, padded or not, also inside a larger base64 text) and hex (either case), each of those
 * percent-encoded or JSON-escaped too. `binary` matches bytes held as a Latin-1 string.
 *
 * @example secretPattern('tok/en+1=ab', false).regex.test('"tok\\/en\\u002b1\\u003dab"') // true
 */
export function secretPattern(value: string, binary = false): SecretPattern {
  const key = `${binary ? 'b' : 't'}\u0000${value}`;
  let pattern = kept.get(key);
  if (!pattern) {
    if (kept.size >= MAX_KEPT) kept.clear();
    pattern = compile(value, binary);
    kept.set(key, pattern);
  }
  return pattern;
}

/** The encoding of an occurrence, from the capture groups of {@link SecretPattern.regex}. */
export function encodingOf(match: string, groups: ReadonlyArray<string | undefined>, value: string): SecretEncoding {
  if (groups[1] !== undefined) return 'base64';
  if (groups[2] !== undefined) return 'base64url';
  if (groups[3] !== undefined) return 'hex';
  if (match === value) return 'raw';
  if (match.includes('\\')) return 'json-escape';
  if (match.includes('%') || match.includes('+')) return 'percent';
  return 'raw';
}

/**
 * A pattern for a value written in any mix of raw, percent-encoded and JSON-escaped characters
 * (no base64 or hex): the form an identifier takes as a whole JSON string or URL query value.
 */
export function plainPattern(value: string, binary = false): string {
  return textPattern(value, binary);
}

/**
 * Every literal form of a value that {@link secretPattern} finds, for tests and leak checks: raw,
 * percent (both hex cases, `+`), JSON escapes (`\/`, `\u0026`, `\u003d`, all `\uXXXX`), base64 (standard,
 * URL-safe, padded and not) and hex (both cases).
 */
export function encodedForms(value: string): string[] {
  const component = encodeURIComponent(value);
  const json = JSON.stringify(value).slice(1, -1);
  const gson = json.replace(/[&=<>']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const base64 = base64Of(utf8.encode(value));
  const hex = [...utf8.encode(value)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const forms = [
    value,
    component,
    component.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    component.replace(/%20/g, '+'),
    encodeURI(value),
    json,
    json.replace(/\//g, '\\/'),
    gson,
    value.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    base64,
    base64.replace(/=+$/, ''),
    toUrlSafe(base64),
    toUrlSafe(base64).replace(/=+$/, ''),
    hex,
    hex.toUpperCase(),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCANNED_LENGTH);
}
