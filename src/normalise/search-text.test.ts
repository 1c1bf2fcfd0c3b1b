import { describe, expect, it } from 'vitest';
import { searcher } from './search-text.js';

const spans = (text: string, needle: string, binary = false) =>
  searcher([{ text: needle, label: 'x' }], binary)(text).map(({ start, end }) => text.slice(start, end));

describe('searcher', () => {
  it('finds a value however it is escaped, and gives back the span as written', () => {
    expect(spans('a "tok\\/en\\u003d1" b', 'tok/en=1')).toEqual(['tok\\/en\\u003d1']);
    expect(spans('?t=tok%2Fen%3d1&x', 'tok/en=1')).toEqual(['tok%2Fen%3d1']);
    expect(spans('{"inner":"{\\"t\\":\\"tok\\\\/en\\\\u003d1\\"}"}', 'tok/en=1')).toEqual(['tok\\\\/en\\\\u003d1']);
    expect(spans('q=a+b%2Bc', 'a b+c')).toEqual(['a+b%2Bc']);
    expect(spans('raw a%00b\\"c here', 'a%00b\\"c')).toEqual(['a%00b\\"c']);
    expect(spans('x %E2%82%AC1234567 y', '€1234567')).toEqual(['%E2%82%AC1234567']);
  });

  it('keeps indexes right after a leading U+FEFF, a lone surrogate and a malformed escape', () => {
    expect(spans('\uFEFF\\u0041bcdefgh', 'Abcdefgh')).toEqual(['\\u0041bcdefgh']);
    expect(spans('\uD800 %zz \\u0041bcdefgh', 'Abcdefgh')).toEqual(['\\u0041bcdefgh']);
  });

  it('finds a value far into a long text', () => {
    const text = `${'x'.repeat((1 << 20) - 5)}tok\\/en\\u003d1${'y'.repeat(3 << 20)}`;
    expect(spans(text, 'tok/en=1')).toEqual(['tok\\/en\\u003d1']);
  });

  it('finds a needle by its UTF-8 bytes in a binary (Latin-1) text', () => {
    expect(spans('\xff\xfe%C3%A9tokenabc\x00', 'étokenabc', true)).toEqual(['%C3%A9tokenabc']);
    expect(spans('\x00\xc3\xa9tokenabc', 'étokenabc', true)).toEqual(['\xc3\xa9tokenabc']);
  });
});
