import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postOverBounds } from './post-bounds.js';

// The bounds of one POST: docs/security.md ("Records in one analytics `POST`"), docs/devices.md.
const MAX_RECORDS_PER_POST = 100;
const MAX_CONTAINERS_PER_POST = 1000;

const records = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ type: 'click', n: `${i}` })));

describe('postOverBounds', () => {
  it('takes up to 100 records and refuses one more, whatever the spacing', () => {
    expect(postOverBounds(records(MAX_RECORDS_PER_POST))).toBeUndefined();
    expect(postOverBounds(records(MAX_RECORDS_PER_POST + 1))).toMatch(/more than 100 records/);
    expect(postOverBounds(` \n [ ${Array.from({ length: 101 }, () => '{}').join(' , ')} ]`)).toMatch(/more than 100/);
    expect(postOverBounds('{"type":"click"}')).toBeUndefined();
    expect(postOverBounds('[]')).toBeUndefined();
  });

  it('counts no comma, bracket or brace inside a string, escaped quotes and backslashes included', () => {
    const tricky = ['a,b,[{', 'q\\"[,', 'ends with a backslash \\\\', '"', ',,,,'].map((v) => ({ v: v.repeat(40) }));
    expect(postOverBounds(JSON.stringify(tricky))).toBeUndefined();
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), { maxLength: 120 }), (body) => {
        const over = postOverBounds(JSON.stringify(body));
        expect(over === undefined).toBe(body.length <= MAX_RECORDS_PER_POST);
      }),
    );
  });

  it('refuses more than 1,000 objects and arrays: nesting, or records of nested values', () => {
    expect(postOverBounds(`[{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`)).toMatch(
      /more than 1000 JSON objects/,
    );
    const nested = JSON.stringify(Array.from({ length: 50 }, () => ({ a: Array.from({ length: 20 }, () => ({})) })));
    expect(postOverBounds(nested)).toMatch(new RegExp(`more than ${MAX_CONTAINERS_PER_POST}`));
    const within = JSON.stringify(Array.from({ length: 50 }, () => ({ a: Array.from({ length: 5 }, () => ({})) })));
    expect(postOverBounds(within)).toBeUndefined();
  });

  it('stops at the bound: what comes after it is never read', () => {
    expect(postOverBounds(`[${Array.from({ length: 340_000 }, () => '{}').join(',')}]`)).toMatch(/more than 100/);
    // An unterminated string after the 101st record would end the scan as "within bounds" if it were read.
    expect(postOverBounds(`[${Array.from({ length: 101 }, () => '{}').join(',')},"never closed`)).toMatch(
      /more than 100/,
    );
    expect(postOverBounds(`[${Array.from({ length: 99 }, () => '{}').join(',')},"never closed`)).toBeUndefined();
  });
});
