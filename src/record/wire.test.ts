import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecodedTooLarge, causeOf, decoded, dropped } from './wire.js';

describe('decoded', () => {
  const body = Buffer.from('{"t":"a\\u0026b"}');
  it.each([
    ['gzip', gzipSync(body)],
    ['deflate', deflateSync(body)],
    ['br', brotliCompressSync(body)],
    ['gzip, br', brotliCompressSync(gzipSync(body))],
    [undefined, body],
  ] as const)('undoes content-encoding %s', async (encoding, bytes) => {
    expect((await decoded(Buffer.from(bytes), encoding, 1024)).equals(body)).toBe(true);
  });
  it('refuses an encoding it does not know, naming it', async () => {
    await expect(decoded(body, 'zstd', 1024)).rejects.toThrow(/content-encoding "zstd"/);
  });
  it('stops a gzip bomb at the limit of decoded bytes, without expanding it (issue 21.4)', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const error = await decoded(bomb, 'gzip', 1024 * 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodedTooLarge);
    expect((error as DecodedTooLarge).limit).toBe(1024 * 1024);
    expect((await decoded(bomb, 'gzip', 64 * 1024 * 1024)).length).toBe(64 * 1024 * 1024);
  });
});

describe('dropped', () => {
  it('adds the headers a Connection header names to the hop-by-hop ones (issue 21.6)', () => {
    expect(dropped({ connection: 'keep-alive, X-Secret-Hop' }).has('x-secret-hop')).toBe(true);
    expect(dropped({}).has('connection')).toBe(true);
    expect(dropped({}).has('x-secret-hop')).toBe(false);
  });
});

describe('causeOf', () => {
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('reads the code of a connection error', () => {
    expect(causeOf(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'))).toEqual({
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 127.0.0.1:1',
      kind: 'other',
    });
  });

  it('names a timeout by what was late, whichever timer fired', () => {
    const deadline = new DOMException('The operation timed out.', 'TimeoutError');
    expect(causeOf(deadline, 'headers')).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT', kind: 'timeout' });
    expect(causeOf(deadline, 'body')).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT', kind: 'timeout' });
    expect(causeOf(coded('UND_ERR_HEADERS_TIMEOUT'), 'body')).toMatchObject({
      code: 'UND_ERR_BODY_TIMEOUT',
      kind: 'timeout',
    });
    expect(causeOf(coded('UND_ERR_CONNECT_TIMEOUT'))).toMatchObject({
      code: 'UND_ERR_CONNECT_TIMEOUT',
      kind: 'timeout',
    });
  });

  it('tells a certificate problem from another TLS failure', () => {
    expect(causeOf(coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'))).toEqual({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      message: 'self-signed certificate',
      kind: 'certificate',
    });
    expect(causeOf(coded('ERR_TLS_CERT_ALTNAME_INVALID')).kind).toBe('certificate');
    expect(causeOf(coded('EPROTO')).kind).toBe('other');
  });
});
