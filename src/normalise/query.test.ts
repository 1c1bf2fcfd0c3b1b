import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESCAPED_NAME, decodeComponent, nameEnd, parseQuery, splitQuery } from './query.js';

describe('splitQuery', () => {
  it('keeps order, repeated names and encoding as sent', () => {
    expect(splitQuery('?ref=&is_from_gallery=true&_model=Redmi%20Note%2012%20Pro%2B&ref=com.example.videoplayer&_eset=')).toEqual([
      ['ref', ''], ['is_from_gallery', 'true'], ['_model', 'Redmi%20Note%2012%20Pro%2B'], ['ref', 'com.example.videoplayer'], ['_eset', ''],
    ]);
  });
  it('reads a pair without = as an empty value, and skips empty parts', () => {
    expect(splitQuery('a&&b=1&')).toEqual([['a', ''], ['b', '1']]);
    expect(splitQuery('')).toEqual([]);
  });
});

describe('decodeComponent', () => {
  it('decodes %XX as UTF-8 and + as a space', () => {
    expect(decodeComponent('Redmi%20Note+12%2B')).toBe('Redmi Note 12+');
    expect(decodeComponent('%E0%A4%B9%E0%A4%BF')).toBe('हि');
  });
  it('keeps malformed escapes as written instead of throwing', () => {
    expect(decodeComponent('100%')).toBe('100%');
    expect(decodeComponent('%zz%41')).toBe('%zzA');
    expect(decodeComponent('a%E2%82b%20c')).toBe('a%E2%82b c');
  });
  it('never throws, whatever the input', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      expect(() => parseQuery(s)).not.toThrow();
    }), { numRuns: 300 });
  });
  it('inverts encodeURIComponent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => decodeComponent(encodeURIComponent(s)) === s));
  });
});

describe('nameEnd', () => {
  it('gives the offset of the pair name\'s "=", -1 without one, ESCAPED_NAME for a name with % or +', () => {
    const query = 'ref=&_ts=17&flag&%5Fst=x&a+b=1&v=%2B';
    expect(nameEnd(query, 0, 4)).toBe(3);
    expect(nameEnd(query, 5, 11)).toBe(8);
    expect(nameEnd(query, 12, 16)).toBe(-1);
    expect(nameEnd(query, 17, 24)).toBe(ESCAPED_NAME);
    expect(nameEnd(query, 25, 30)).toBe(ESCAPED_NAME);
    // An escape in the value does not count: the name ends first.
    expect(nameEnd(query, 31, query.length)).toBe(32);
  });
});
