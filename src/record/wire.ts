import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { HOP_BY_HOP_HEADERS, flatValue } from '../contract/http-wire.js';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';

/** Header values as one string each (see `flatValue`), names in lower case. */
export function flat(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = flatValue(value)!;
  return out;
}

/**
 * The headers not to forward of a message: the hop-by-hop ones (`HOP_BY_HOP_HEADERS`) and every header
 * its `Connection` header names (`Connection: close, x-secret-hop`), lower case.
 * @example dropped({ connection: 'keep-alive, X-Hop' }).has('x-hop') // true
 */
export function dropped(headers: Readonly<Record<string, string>>): ReadonlySet<string> {
  const named = (headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return named.length ? new Set([...HOP_BY_HOP_HEADERS, ...named]) : HOP_BY_HOP_HEADERS;
}

/** A decoded body over its limit: `limit` in bytes. */
export class DecodedTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number, coding: string) {
    super(`a "${coding}" body that decodes to more than ${limit} bytes`);
    this.limit = limit;
  }
}

type Decoder = (buffer: Buffer, options: ZlibOptions) => Promise<Buffer>;
const DECODERS: Record<string, Decoder> = {
  gzip: promisify(gunzip) as Decoder,
  'x-gzip': promisify(gunzip) as Decoder,
  deflate: promisify(inflate) as Decoder,
  br: promisify(brotliDecompress) as Decoder,
};

/**
 * Decodes a copy of a compressed body for storage, undoing `content-encoding` (gzip, deflate, br)
 * in reverse order, without blocking: node:zlib works in its thread pool, chunk by chunk, and stops
 * as soon as the output passes `limit` bytes (`maxOutputLength`), so a gzip bomb never expands in memory.
 * @throws DecodedTooLarge when a decoded body would pass `limit` bytes.
 * @throws Error for an encoding it cannot decode, or bytes that do not decode.
 */
export async function decoded(body: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity')
    .reverse();
  let out = body;
  for (const coding of codings) {
    const decode = DECODERS[coding];
    if (!decode) throw new Error(`content-encoding "${coding}" is not supported`);
    try {
      out = await decode(out, { maxOutputLength: limit });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecodedTooLarge(limit, coding);
      throw error;
    }
  }
  return out;
}

/**
 * Certificate problems of a TLS upstream (Node's and OpenSSL's codes, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`,
 * `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `ERR_TLS_CERT_ALTNAME_INVALID`, `CERT_HAS_EXPIRED`): the ones
 * `--insecure-upstream` lets through. Other TLS failures (say, `EPROTO` for an http upstream given as https) are not.
 */
const CERTIFICATE_ERROR =
  /CERT|SELF_SIGNED|^UNABLE_TO_(?:VERIFY|GET|DECODE)|^HOSTNAME_MISMATCH$|^INVALID_(?:CA|PURPOSE)$|^PATH_LENGTH_EXCEEDED$/;

/** Codes of an upstream that was too slow (undici's own timeouts and the socket's). */
const TIMEOUT_CODE = /^(?:UND_ERR_(?:HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT)$/;

/**
 * Why an upstream exchange failed. `kind` picks the answer: `timeout` gets a 504, `certificate` and
 * `other` a 502 (a certificate problem with a hint about `--insecure-upstream`).
 */
export interface UpstreamFailure {
  /** `UND_ERR_HEADERS_TIMEOUT`, `UND_ERR_BODY_TIMEOUT`, `ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, ... */
  code: string;
  message: string;
  kind: 'timeout' | 'certificate' | 'other';
}

/**
 * The code, message and kind of an upstream failure. The deadline (an `AbortSignal.timeout`, a
 * `TimeoutError`) and undici's own timeouts are named by what was late, from `phase`: no headers
 * yet gives `UND_ERR_HEADERS_TIMEOUT`, a body still arriving gives `UND_ERR_BODY_TIMEOUT`, whichever
 * timer fired first.
 * @example causeOf(new DOMException('The operation timed out.', 'TimeoutError'), 'body') // { code: 'UND_ERR_BODY_TIMEOUT', kind: 'timeout', ... }
 */
export function causeOf(error: unknown, phase: 'headers' | 'body' = 'headers'): UpstreamFailure {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string }; name?: string };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? 'ERROR';
  const message = e?.cause?.message ?? e?.message ?? String(error);
  if (e?.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return phase === 'headers'
      ? { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'no answer headers in time', kind: 'timeout' }
      : { code: 'UND_ERR_BODY_TIMEOUT', message: 'the body did not finish in time', kind: 'timeout' };
  }
  if (TIMEOUT_CODE.test(code)) return { code, message, kind: 'timeout' };
  if (CERTIFICATE_ERROR.test(code)) return { code, message, kind: 'certificate' };
  return { code, message, kind: 'other' };
}
