import { describe, expect, it } from 'vitest';
import { buildDeepLink, isEncodedDeepLink, parseDeepLink } from './deep-link.js';

describe('deep links', () => {
  it('percent-encodes a nested deep link and keeps | literal', () => {
    const nested = buildDeepLink({
      scheme: 'mv',
      host: 'h',
      path: '/p',
      query: [
        ['a', '1'],
        ['b', '2'],
      ],
    });
    const link = buildDeepLink({
      scheme: 'mv',
      host: 'host',
      query: [
        ['default', nested],
        ['position', 'localplayrecomm||||3'],
      ],
    });
    expect(link).toBe('mv://host?default=mv%3A%2F%2Fh%2Fp%3Fa%3D1%26b%3D2&position=localplayrecomm||||3');
  });

  it('parses back what it built, raw and decoded', () => {
    const parsed = parseDeepLink('mv://host?default=mv%3A%2F%2Fh&x=&y');
    expect(parsed?.host).toBe('host');
    expect(parsed?.query).toEqual([
      ['default', 'mv://h'],
      ['x', ''],
      ['y', ''],
    ]);
    expect(parsed?.rawQuery[0]).toEqual(['default', 'mv%3A%2F%2Fh']);
  });

  it('rejects text that is not a deep link and survives malformed encoding', () => {
    expect(parseDeepLink('not a link')).toBeUndefined();
    expect(parseDeepLink('mv://h?x=%E0%A4%A')?.query[0]).toEqual(['x', '%E0%A4%A']);
  });

  it('tells an encoded nested link from a raw one', () => {
    expect(isEncodedDeepLink('mv%3A%2F%2Fh%3Fa%3D1')).toBe(true);
    expect(isEncodedDeepLink('mv://h?a=1')).toBe(false);
    expect(isEncodedDeepLink('plain')).toBe(false);
  });
});
