import { base64, base64nopad } from '@scure/base';

/** A body as stored: exact text when the bytes are valid UTF-8, else base64 of the bytes. */
export type StoredBody = { body: string; bodyBase64?: undefined } | { bodyBase64: string; body?: undefined };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Base64 of bytes (standard alphabet, padded). */
export const toBase64 = (bytes: Uint8Array): string => base64.encode(bytes);

/** One character per byte (code 0–255), in chunks so large bodies do not overflow the stack. */
export function toBinaryString(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return binary;
}

/**
 * Bytes of base64 text (standard alphabet, padding optional).
 * @throws Error when `text` is not base64.
 */
export const fromBase64 = (text: string): Uint8Array => base64nopad.decode(text.replace(/={1,2}$/, ''));

/**
 * Stores body bytes so that {@link recordedBodyBytes} gives the same bytes back: `{ body }` (the text,
 * `\u0026` escapes and all) for valid UTF-8, else `{ bodyBase64 }`.
 *
 * @example storeBody(new TextEncoder().encode('{"a":"x\\u0026y"}')) // { body: '{"a":"x\\u0026y"}' }
 */
export function storeBody(bytes: Uint8Array): StoredBody {
  try {
    return { body: strictUtf8.decode(bytes) };
  } catch {
    return { bodyBase64: toBase64(bytes) };
  }
}

/** The exact bytes of a stored body. @throws Error when `bodyBase64` is not base64. */
export function recordedBodyBytes(stored: { body?: string | undefined; bodyBase64?: string | undefined }): Uint8Array {
  if (stored.bodyBase64 !== undefined) return fromBase64(stored.bodyBase64);
  return new TextEncoder().encode(stored.body ?? '');
}
