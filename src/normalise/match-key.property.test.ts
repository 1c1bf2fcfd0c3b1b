import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchKey, queryMultimap } from './match-key.js';
import { DEFAULT_POLICY } from './policy.js';
import { splitQuery, type RawPair } from './query.js';

/** Query text with the awkward parts: percent signs (valid and not), `+`, `=`, `&`, unicode. */
const queryText = fc
  .stringMatching(/^[A-Za-z0-9_%+=&.~\-\u00e9\u0905\u4e2d]{0,80}$/)
  .chain((base) =>
    fc.oneof(
      fc.constant(base),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constant(`${base}%E0%A4%A&%zz=%&++=+`),
    ),
  );
const name = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/)
  .filter(
    (n) =>
      !DEFAULT_POLICY.volatile.includes(n) &&
      !DEFAULT_POLICY.secret.includes(n) &&
      !DEFAULT_POLICY.identity.includes(n),
  );
const value = fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent);
const pairs = fc.array(fc.tuple(name, value), { maxLength: 30 });

describe('match key properties', () => {
  it('never throws, whatever the query string', () => {
    fc.assert(
      fc.property(queryText, (text) => {
        expect(typeof matchKey('GET', 'meta/cp', splitQuery(text), DEFAULT_POLICY)).toBe('string');
      }),
    );
  });

  it('never throws on thousands of parameters', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 2000, maxLength: 4000 }), (many) => {
        expect(matchKey('GET', 'meta/cp', many, DEFAULT_POLICY).length).toBeGreaterThan(0);
      }),
      { numRuns: 5 },
    );
  });

  it('ignores the values of volatile, secret and identity parameters', () => {
    const ignored = fc.constantFrom(...DEFAULT_POLICY.volatile, ...DEFAULT_POLICY.secret, ...DEFAULT_POLICY.identity);
    fc.assert(
      fc.property(pairs, ignored, value, value, (base, param, a, b) => {
        const withValue = (v: string): RawPair[] => [...base, [param, v]];
        expect(matchKey('GET', 'meta/cp', withValue(a), DEFAULT_POLICY)).toBe(
          matchKey('GET', 'meta/cp', withValue(b), DEFAULT_POLICY),
        );
      }),
    );
  });

  it('keeps the values of a repeated parameter in order', () => {
    fc.assert(
      fc.property(pairs, name, value, value, (base, param, a, b) => {
        fc.pre(decodeURIComponent(a) !== decodeURIComponent(b));
        const rest = base.filter(([n]) => n !== param);
        const forward = matchKey('GET', 'meta/cp', [...rest, [param, a], [param, b]], DEFAULT_POLICY);
        const backward = matchKey('GET', 'meta/cp', [...rest, [param, b], [param, a]], DEFAULT_POLICY);
        expect(forward).not.toBe(backward);
        expect(
          queryMultimap(
            [
              [param, a],
              [param, b],
            ],
            DEFAULT_POLICY,
          )[param],
        ).toEqual([decodeURIComponent(a), decodeURIComponent(b)]);
      }),
    );
  });
});
