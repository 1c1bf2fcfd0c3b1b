import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntList, TextMap, TextPool } from './compact.js';

// Any UTF-16 text: lone surrogates, U+00FF (the pool's escape byte), U+FFFF, the empty text.
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '\u00ff', '\ud800', '\udc00x', '\uffff', 'ÿÿ\u0100'), fc.string({ maxLength: 6000 }));

describe('compact storage', () => {
  it('TextPool gives back every text exactly', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 50 }), (texts) => {
        const pool = new TextPool();
        const ids = texts.map((t) => pool.add(t));
        expect(ids).toEqual(texts.map((_, i) => i));
        texts.forEach((t, i) => {
          expect(pool.get(i)).toBe(t);
          expect(pool.equals(i, t)).toBe(true);
          expect(pool.equals(i, `${t}x`)).toBe(false);
        });
      }),
    );
  });

  it('TextMap finds what was added, and only that (same answers as a Map)', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 200 }), fc.array(text, { maxLength: 20 }), (added, asked) => {
        const map = new TextMap();
        const reference = new Map<string, number>();
        for (const t of added) {
          if (reference.has(t)) continue;
          const id = map.add(t, reference.size * 7);
          expect(map.text(id)).toBe(t);
          reference.set(t, reference.size * 7);
        }
        for (const t of [...added, ...asked]) expect(map.get(t)).toBe(reference.get(t));
        expect(map.size).toBe(reference.size);
      }),
    );
  });

  it('IntList keeps every item through growth', () => {
    const list = new IntList(1);
    for (let i = 0; i < 10_000; i++) expect(list.push(i * 3 - 5000)).toBe(i);
    list.set(7, 42);
    expect([list.length, list.get(0), list.get(7), list.get(9_999)]).toEqual([10_000, -5000, 42, 9_999 * 3 - 5000]);
  });
});
