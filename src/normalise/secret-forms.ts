/**
 * The forms a secret value takes when a service echoes it: raw, base64 and hex, each of them
 * possibly percent-encoded or JSON-escaped (found by `searcher`, which reads those escapes).
 * Pure: runs in any runtime.
 * @module
 */
import { base64, base64nopad, base64url, base64urlnopad, hex } from '@scure/base';

/** Values shorter than this (in characters) are never searched for as text: only under their own name. */
export const MIN_SCANNED_LENGTH = 8;

/** How a found occurrence was written. */
export type SecretEncoding = 'raw' | 'percent' | 'json-escape' | 'base64' | 'base64url' | 'hex';

const utf8 = new TextEncoder();

/**
 * Base64 forms of the bytes in one alphabet: the whole value (padded and not), and the characters
 * that stay the same wherever the value sits inside a larger base64 text (each of the three byte
 * alignments).
 */
function base64Forms(bytes: Uint8Array, coder: typeof base64, unpadded: typeof base64): string[] {
  const forms = [coder.encode(bytes), unpadded.encode(bytes)];
  for (let skip = 0; skip < 3 && bytes.length - skip >= 6; skip++)
    forms.push(coder.encode(bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3)));
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCANNED_LENGTH);
}

/** One plain form of a secret to look for in decoded text; `anyCase` for hex. */
export interface SecretForm {
  text: string;
  encoding: Extract<SecretEncoding, 'raw' | 'base64' | 'base64url' | 'hex'>;
  anyCase?: boolean;
}

/**
 * The plain forms of a secret value, longest first: the value itself, its base64 (standard and
 * URL-safe, padded or not, and the part that stays the same inside a larger base64 text) and its
 * hex. Searched for however percent- or JSON-escaped (see `searcher`), they find every encoding a service writes
 * (`encodedForms` in the tests lists them).
 *
 * @example secretForms('made-up-token-1').map((f) => f.encoding) // ['hex', 'base64', ..., 'raw']
 */
export function secretForms(value: string): SecretForm[] {
  const bytes = utf8.encode(value);
  const standard = base64Forms(bytes, base64, base64nopad);
  const forms: SecretForm[] = [
    { text: value, encoding: 'raw' },
    ...standard.map((text): SecretForm => ({ text, encoding: 'base64' })),
    ...base64Forms(bytes, base64url, base64urlnopad)
      .filter((text) => !standard.includes(text))
      .map((text): SecretForm => ({ text, encoding: 'base64url' })),
    { text: hex.encode(bytes), encoding: 'hex', anyCase: true },
  ];
  return forms.sort((a, b) => b.text.length - a.text.length);
}
