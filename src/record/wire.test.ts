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
  it('reads the code of a connection error and calls timeouts ETIMEDOUT', () => {
    expect(causeOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })).code).toBe('ECONNREFUSED');
    expect(causeOf(new DOMException('The operation timed out.', 'TimeoutError')).code).toBe('ETIMEDOUT');
  });
});
