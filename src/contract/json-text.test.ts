import { describe, expect, it } from 'vitest';
import { toServiceJson } from './json-text.js';

describe('toServiceJson', () => {
  it('writes every & as \\u0026 and parses back to the same value', () => {
    const value = { target: 'mv://h?a=1&b=2', nested: ['x&y'], plain: 'ok' };
    const text = toServiceJson(value);
    expect(text).not.toContain('&');
    expect(text).toContain('a=1\\u0026b=2');
    expect(JSON.parse(text)).toEqual(value);
  });
});
