import { describe, expect, it } from 'vitest';
import { copyOneByte } from './one-byte.js';

describe('copyOneByte', () => {
  it('copies short and long latin1 text byte for byte and says where it ends', () => {
    const bytes = Buffer.alloc(300);
    for (const text of ['', 'host', 'caf\u00e9 \u00ff', `_st=${'a'.repeat(100)}&x=\u00e9`]) {
      const end = copyOneByte(bytes, 3, text, 0x100);
      expect(end).toBe(3 + text.length);
      expect(bytes.toString('latin1', 3, end)).toBe(text);
    }
  });

  it('refuses a character at or beyond the limit, and text that does not fit', () => {
    const bytes = Buffer.alloc(200);
    expect(copyOneByte(bytes, 0, 'caf\u00e9', 0x80)).toBe(-1);
    expect(copyOneByte(bytes, 0, `${'a'.repeat(100)}\u00e9`, 0x80)).toBe(-1);
    expect(copyOneByte(bytes, 0, '\u20ac', 0x100)).toBe(-1);
    expect(copyOneByte(bytes, 0, `${'a'.repeat(100)}\u20ac`, 0x100)).toBe(-1);
    expect(copyOneByte(bytes, 150, 'a'.repeat(51), 0x100)).toBe(-1);
    expect(copyOneByte(bytes, 150, 'a'.repeat(50), 0x80)).toBe(200);
  });
});
