import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../normalise/policy.js';
import { clientQuery, liveQueryOf, liveValues, queryString } from './live-query.js';
import { valueScrubber } from '../normalise/scrub.js';

describe('liveQueryOf', () => {
  it('puts back the real token and identifiers (given ones win over kept ones), makes _nonce and _ts fresh, and names what is missing', () => {
    const recorded: Array<[string, string]> = [
      ['ref', ''],
      ['_sdevid', 'kept-device'],
      ['_st', '<SERVICE_TOKEN>'],
      ['_anoyid', '<REDACTED>'],
      ['_nonce', '1'],
      ['_ts', '2'],
      ['ref', 'app'],
    ];
    const given = liveQueryOf(
      recorded,
      new Map([
        ['_st', 'tok'],
        ['_sdevid', 'mine'],
      ]),
      DEFAULT_POLICY,
      1_800_000_000_000,
    );
    expect(given.pairs.filter(([n]) => n !== '_nonce')).toEqual([
      ['ref', ''],
      ['_sdevid', 'mine'],
      ['_st', 'tok'],
      ['_anoyid', '<REDACTED>'],
      ['_ts', '1800000000'],
      ['ref', 'app'],
    ]);
    expect(given.pairs.find(([n]) => n === '_nonce')![1]).toMatch(/^-?\d+$/);
    expect(given.missing).toEqual(['_anoyid']);
  });
});

describe('live values', () => {
  it('reads a query string, a request line or name=value lines, comments left out; MOCKVIDEO_ST wins for the token', () => {
    expect([...liveValues(['# mine\nGET /api/g1/meta/cp?_st=a%2Bb&x=1\ny=2\n'])]).toEqual([
      ['_st', 'a%2Bb'],
      ['x', '1'],
      ['y', '2'],
    ]);
    expect([...liveValues(['_st=a&_sdevid=d', '_sdevid=e'], 'to ken')]).toEqual([
      ['_st', 'to%20ken'],
      ['_sdevid', 'e'],
    ]);
  });

  it('scrubs every encoding of the token and identifiers, and nothing else', () => {
    const scrub = valueScrubber(
      new Map([
        ['_st', 'tok%2Bsecret'],
        ['_region', 'INDIA'],
      ]),
      DEFAULT_POLICY,
    );
    expect(scrub('a tok+secret b tok%2Bsecret c INDIA')).toBe('a <SERVICE_TOKEN> b <SERVICE_TOKEN> c INDIA');
  });
});

describe('clientQuery', () => {
  it("is the client's query: extra parameters first, the common ones in the seed's order, the stub's conditions, and what is missing", () => {
    const query = clientQuery(
      'localplay/diversion',
      new Map([['_st', 'tok']]),
      DEFAULT_POLICY,
      { is_from_gallery: 'false' },
      1_800_000_000_000,
    );
    const text = queryString(query.pairs);
    expect(text).toMatch(
      /^ref=&is_from_gallery=false&_sdevid=<REDACTED>&_oemui=V140&.*&_st=tok&_language=English&ref=com\.example\.videoplayer&_res=hd1080&_nonce=-?\d+&_ts=1800000000&/,
    );
    expect(query.missing).toEqual(['_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5']);
  });
});
