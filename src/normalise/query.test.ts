import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeComponent, queryValues, splitQuery } from './query.js';

describe('splitQuery', () => {
  it('keeps order, repeated names and encoding as sent', () => {
    expect(
      splitQuery('?ref=&is_from_gallery=true&_model=Redmi%20Note%2012%20Pro%2B&ref=com.example.videoplayer&_eset='),
    ).toEqual([
      ['ref', ''],
      ['is_from_gallery', 'true'],
      ['_model', 'Redmi%20Note%2012%20Pro%2B'],
      ['ref', 'com.example.videoplayer'],
      ['_eset', ''],
    ]);
  });
  it('reads a pair without = as an empty value, and skips empty parts', () => {
    expect(splitQuery('a&&b=1&')).toEqual([
      ['a', ''],
      ['b', '1'],
    ]);
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
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(() => queryValues(splitQuery(s))).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
  it('inverts encodeURIComponent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => decodeComponent(encodeURIComponent(s)) === s));
  });
});

describe('queryValues', () => {
  it('groups the decoded values of each name in the order sent, names in the order first sent', () => {
    const values = queryValues(splitQuery('ref=&_model=Redmi%20Note+12&ref=com.example.videoplayer&x'));
    expect([...values]).toEqual([
      ['ref', ['', 'com.example.videoplayer']],
      ['_model', ['Redmi Note 12']],
      ['x', ['']],
    ]);
  });

  it('holds each decoded pair, grouped by name', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', '%41', 'c+d'), fc.string())), (pairs) => {
        const search = pairs.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
        const grouped = new Map<string, string[]>();
        for (const [name, value] of splitQuery(search).map(([n, v]) => [decodeComponent(n), decodeComponent(v)]))
          grouped.set(name!, [...(grouped.get(name!) ?? []), value!]);
        expect(queryValues(splitQuery(search))).toEqual(grouped);
      }),
    );
  });

  it('reads a query string as it reads its pairs, whatever the string', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', '=', '&', '?', '%41', '+', 'é', '%zz', '')).map((parts) => parts.join('')),
        (search) => {
          expect(queryValues(search)).toEqual(queryValues(splitQuery(search)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
