import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** Headers that belong to one connection: never forwarded either way. */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', 'proxy-authorization', 'host']);

/** Header values as one string each (repeated values joined with `, `), names in lower case. */
export function flat(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Decodes a copy of a compressed body for storage, undoing `content-encoding` (gzip, deflate, br)
 * in reverse order.
 * @throws Error for an encoding it cannot decode.
 */
export function decoded(body: Buffer, encoding: string | undefined): Buffer {
  const codings = (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity').reverse();
  let out = body;
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out);
    else if (coding === 'deflate') out = inflateSync(out);
    else if (coding === 'br') out = brotliDecompressSync(out);
    else throw new Error(`content-encoding "${coding}" is not supported`);
  }
  return out;
}

/**
 * The path and query as sent, from an origin-form or absolute-form request target; the host of an
 * absolute-form target is dropped (never trusted: the recorder is not an open proxy).
 * @example requestTarget('http://elsewhere.invalid/api/g1/meta/cp?a=1') // '/api/g1/meta/cp?a=1'
 */
export function requestTarget(raw: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(raw);
  const target = absolute ? raw.slice(absolute[0].length) || '/' : raw;
  return target.startsWith('/') ? target : `/${target}`;
}

/** The code (`ECONNREFUSED`, `ETIMEDOUT`, ...) and message of an upstream failure. */
export function causeOf(error: unknown): { code: string; message: string } {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string }; name?: string };
  if (e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT') return { code: 'ETIMEDOUT', message: 'timed out' };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? 'ERROR';
  return { code, message: e?.cause?.message ?? e?.message ?? String(error) };
}
