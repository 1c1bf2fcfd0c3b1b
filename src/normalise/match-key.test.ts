import { describe, expect, it } from 'vitest';
import { matchKey } from './match-key.js';
import { DEFAULT_POLICY, resolvePolicy } from './policy.js';
import { splitQuery } from './query.js';

const key = (search: string, policy = DEFAULT_POLICY) =>
  matchKey('GET', 'localplay/diversion', splitQuery(search), policy);

describe('matchKey', () => {
  it('is the method, operation and remaining parameters as a multimap, stably serialised', () => {
    expect(key('ref=&is_from_gallery=true&ref=app&_nonce=5&_ts=9&_st=T&_sdevid=abc')).toBe(
      '{"method":"GET","operation":"localplay/diversion","query":{"is_from_gallery":["true"],"ref":["","app"]}}',
    );
  });
  it('ignores volatile, secret and identity values, and the order of different names', () => {
    expect(key('_nonce=1&_ts=2&_st=A&_anoyid=x&_region=IN&ref=&ref=app')).toBe(
      key('ref=&_region=IN&ref=app&_nonce=-7&_ts=3&_st=B&_anoyid=y'),
    );
  });
  it('keeps the order of a repeated parameter', () => {
    expect(key('ref=&ref=app')).not.toBe(key('ref=app&ref='));
  });
  it('compares decoded values: %20 and + are the same space', () => {
    expect(key('_model=Redmi%20Note')).toBe(key('_model=Redmi+Note'));
  });
  it('follows a changed policy', () => {
    const policy = resolvePolicy({ volatile: ['_nonce', '_ts', '_model'] });
    expect(key('_model=A&_region=IN', policy)).toBe(key('_model=B&_region=IN', policy));
  });
});

describe('resolvePolicy', () => {
  it('refuses a name in two lists, naming it', () => {
    expect(() => resolvePolicy({ volatile: ['_st'] })).toThrow(/\[mockvideo\] .*"_st" is both volatile and secret/);
  });
  it('always redacts credential headers', () => {
    expect(resolvePolicy({ headers: ['X-Api-Key'] }).headers).toEqual(
      expect.arrayContaining(['authorization', 'cookie', 'set-cookie', 'x-api-key']),
    );
  });
});
