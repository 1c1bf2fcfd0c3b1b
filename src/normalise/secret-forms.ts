/**
 * The forms a secret value takes when a service echoes it: raw, base64 and hex, each of them
 * possibly percent-encoded or JSON-escaped (found by decoding the text, see `findDecoded`).
 * Pure: runs in any runtime.
 * @module
 */

/** Values shorter than this (in characters) are never searched for as text: only under their own name. */
export const MIN_SCANNED_LENGTH = 8;

/** How a found occurrence was written. */
export type SecretEncoding = 'raw' | 'percent' | 'json-escape' | 'base64' | 'base64url' | 'hex';

const utf8 = new TextEncoder();

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

/** One plain form of a secret to look for in decoded text; `anyCase` for hex. */
export interface SecretForm {
  text: string;
  encoding: Extract<SecretEncoding, 'raw' | 'base64' | 'base64url' | 'hex'>;
  anyCase?: boolean;
}

/**
 * The plain forms of a secret value, longest first: the value itself (its UTF-8 bytes as Latin-1
 * characters in `binary` mode), its base64 (standard and URL-safe, padded or not, and the part that
 * stays the same inside a larger base64 text) and its hex. Searched for in text decoded from
 * percent-escapes and JSON escapes (see `findDecoded`), they find every encoding of {@link encodedForms}.
 *
 * @example secretForms('made-up-token-1', false).map((f) => f.encoding) // ['hex', 'base64', ..., 'raw']
 */
export function secretForms(value: string, binary = false): SecretForm[] {
  const bytes = utf8.encode(value);
  const base64 = base64Forms(bytes);
  const forms: SecretForm[] = [
    { text: binary ? String.fromCharCode(...bytes) : value, encoding: 'raw' },
    ...base64.map((text): SecretForm => ({ text, encoding: 'base64' })),
    ...[...new Set(base64.map(toUrlSafe))]
      .filter((text) => !base64.includes(text))
      .map((text): SecretForm => ({ text, encoding: 'base64url' })),
    { text: [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''), encoding: 'hex', anyCase: true },
  ];
  return forms.sort((a, b) => b.text.length - a.text.length);
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
    value
      .split('')
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
    base64,
    base64.replace(/=+$/, ''),
    toUrlSafe(base64),
    toUrlSafe(base64).replace(/=+$/, ''),
    hex,
    hex.toUpperCase(),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCANNED_LENGTH);
}
