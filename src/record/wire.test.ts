import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { causeOf, decoded, requestTarget } from './wire.js';

describe('requestTarget', () => {
  it('keeps an origin-form target as sent, encoding and all', () => {
    expect(requestTarget('/api/g1/meta/cp?ref=&_model=Redmi%20Note%2B&ref=app')).toBe('/api/g1/meta/cp?ref=&_model=Redmi%20Note%2B&ref=app');
  });
  it('drops the host of an absolute-form target', () => {
    expect(requestTarget('http://elsewhere.invalid:81/api/g1/meta/cp?a=1')).toBe('/api/g1/meta/cp?a=1');
    expect(requestTarget('https://elsewhere.invalid')).toBe('/');
  });
});

describe('decoded', () => {
  const body = Buffer.from('{"t":"a\\u0026b"}');
  it.each([
    ['gzip', gzipSync(body)],
    ['deflate', deflateSync(body)],
    ['br', brotliCompressSync(body)],
    ['gzip, br', brotliCompressSync(gzipSync(body))],
    [undefined, body],
  ] as const)('undoes content-encoding %s', (encoding, bytes) => {
    expect(decoded(Buffer.from(bytes), encoding).equals(body)).toBe(true);
  });
  it('refuses an encoding it does not know, naming it', () => {
    expect(() => decoded(body, 'zstd')).toThrow(/content-encoding "zstd"/);
  });
});

describe('causeOf', () => {
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('reads the code of a connection error', () => {
    expect(causeOf(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'))).toEqual({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1', kind: 'other' });
  });

  it('names a timeout by what was late, whichever timer fired', () => {
    const deadline = new DOMException('The operation timed out.', 'TimeoutError');
    expect(causeOf(deadline, 'headers')).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT', kind: 'timeout' });
    expect(causeOf(deadline, 'body')).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT', kind: 'timeout' });
    expect(causeOf(coded('UND_ERR_HEADERS_TIMEOUT'), 'body')).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT', kind: 'timeout' });
    expect(causeOf(coded('UND_ERR_CONNECT_TIMEOUT'))).toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT', kind: 'timeout' });
  });

  it('tells a certificate problem from another TLS failure', () => {
    expect(causeOf(coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'))).toEqual({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate', kind: 'certificate' });
    expect(causeOf(coded('ERR_TLS_CERT_ALTNAME_INVALID')).kind).toBe('certificate');
    expect(causeOf(coded('EPROTO')).kind).toBe('other');
  });
});
