import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientStates, clientOf, stepText } from './client-state.js';

/** The bytes of per-device state: docs/security.md, "Bounds" (8 MiB, a device's id at 2 bytes a character). */
const MAX_CLIENT_BYTES = 8 * 1024 * 1024;

describe('clientOf', () => {
  it('reads a raw query as URLSearchParams does (first value, percent and + decoded)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('_sdevid', '_anoyid', '_ts', 'x_sdevid'),
            fc.constantFrom('', 'ab', 'a%20b', 'a+b', '%E3%81%82', '%zz', 'é'),
          ),
          { maxLength: 5 },
        ),
        (pairs) => {
          const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
          expect(clientOf(query, '10.0.2.2')).toBe(clientOf(new URLSearchParams(query), '10.0.2.2'));
          expect(clientOf(query)).toBe(clientOf(new URLSearchParams(query)));
        },
      ),
    );
  });

  it('names the client by _sdevid, else _anoyid, else the address, else unknown', () => {
    expect(clientOf('_region=IN&_sdevid=ab12&_anoyid=u1')).toBe('sdevid:ab12');
    expect(clientOf('_sdevid=ab%2012')).toBe('sdevid:ab 12');
    expect(clientOf('x_sdevid=no&_anoyid=u1')).toBe('anoyid:u1');
    expect(clientOf('?_sdevid=&_anoyid=u1')).toBe('anoyid:u1');
    expect(clientOf(new URLSearchParams('_anoyid=u2'))).toBe('anoyid:u2');
    expect(clientOf('_region=IN', '10.0.2.16')).toBe('address:10.0.2.16');
    expect(clientOf('')).toBe('unknown');
  });
});

describe('ClientStates', () => {
  const store = (scope: 'client' | 'global' = 'client') => {
    let now = 0;
    const states = new ClientStates({ scope, quietGapMs: 5000, now: () => now });
    return { states, at: (ms: number) => (now = ms) };
  };

  it('a flood of new ids never forgets a device in the middle of its start-up (the least recently seen goes first; issue 34.16)', () => {
    const { states, at } = store();
    at(1000);
    states.counters('sdevid:active', 'meta/setting').set('step', 1);
    for (let i = 0; i < 5000; i++) {
      at(1000 + i / 10);
      states.counters(`sdevid:new-${i}`, 'meta/setting');
      // The active device goes on with its start-up meanwhile (well within the quiet gap).
      if (i % 1000 === 999) states.counters('sdevid:active', 'meta/cp');
    }
    const known = states.list().map((summary) => summary.client);
    expect([known.includes('sdevid:active'), known.includes('sdevid:new-0')]).toEqual([true, false]);
    expect(states.counters('sdevid:active', 'meta/cp').get('step')).toBe(1);
  });

  it('is bounded by bytes as well as count: 7.9 KB ids keep ~500 clients, the newest and the active one (issue 39, L8)', () => {
    const { states, at } = store();
    const long = (i: number) => `sdevid:${`${i}`.padEnd(7900, 'x')}`;
    states.counters('sdevid:active', 'meta/setting').set('step', 1);
    for (let i = 0; i < 2000; i++) {
      at(i);
      states.counters(long(i), 'meta/setting').set('k', 1);
      if (i % 100 === 99) states.counters('sdevid:active', 'meta/cp');
    }
    const known = states.list().map((summary) => summary.client);
    const bytes = known.reduce((sum, client) => sum + client.length * 2, 0);
    expect(bytes).toBeLessThanOrEqual(MAX_CLIENT_BYTES);
    expect(known.length).toBeGreaterThan(400);
    expect(known.length).toBeLessThan(600);
    expect([known.includes('sdevid:active'), known.includes(long(1999)), known.includes(long(0))]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('keeps counters per client', () => {
    const { states } = store();
    states.counters('sdevid:a', 'meta/setting').set('k', 1);
    expect(states.counters('sdevid:b', 'meta/setting').get('k')).toBeUndefined();
    expect(states.counters('sdevid:a', 'meta/setting').get('k')).toBe(1);
  });

  it('starts a client again at its next start-up: a request other than localplay/recomm after the quiet gap', () => {
    const { states, at } = store();
    states.counters('sdevid:a', 'meta/setting').set('k', 2);
    at(4999);
    expect(states.counters('sdevid:a', 'meta/cp').get('k')).toBe(2);
    // The recommendation view after playback is no start-up: the counters go on.
    at(20_000);
    expect(states.counters('sdevid:a', 'localplay/recomm').get('k')).toBe(2);
    // A start-up after the gap: fresh counters.
    at(30_000);
    expect(states.counters('sdevid:a', 'ad_config').get('k')).toBeUndefined();
    expect(states.list()).toEqual([{ client: 'sdevid:a', counters: 0, startUps: 2, idleMs: 0 }]);
  });

  it('in global scope has one set of counters that start-ups never reset', () => {
    const { states, at } = store('global');
    states.counters('sdevid:a', 'meta/setting').set('k', 2);
    at(60_000);
    expect(states.counters('sdevid:b', 'meta/setting').get('k')).toBe(2);
    expect(states.list()).toEqual([]);
  });

  it('resets one client or all, and forgets the counters of one scenario everywhere', () => {
    const { states } = store();
    states.counters('sdevid:a', 'meta/setting').set('gallery\u0000x', 1);
    states.counters('sdevid:a', 'meta/setting').set('default\u0000x', 1);
    states.counters('sdevid:b', 'meta/setting').set('gallery\u0000x', 1);
    states.forget('gallery\u0000');
    expect([...states.counters('sdevid:a', 'meta/setting').keys()]).toEqual(['default\u0000x']);
    expect(states.reset('sdevid:a')).toBe(1);
    expect(states.counters('sdevid:a', 'meta/setting').size).toBe(0);
    expect(states.reset()).toBe(2);
    expect(states.list()).toEqual([]);
  });
});

describe('ClientStates.forget for one client (a device given its own scenario)', () => {
  it("forgets that client's counters of the scenario, neither another client's nor the server's", () => {
    const states = new ClientStates({ now: () => 0 });
    states.counters('sdevid:a', 'meta/setting').set('gallery\u0000x', 1);
    states.counters('sdevid:b', 'meta/setting').set('gallery\u0000x', 1);
    states.counters('', 'meta/setting', 'global').set('gallery\u0000x', 1);
    states.forget('gallery\u0000', 'sdevid:a');
    states.forget('gallery\u0000', 'sdevid:never-seen');
    expect(states.counters('sdevid:a', 'meta/setting').size).toBe(0);
    expect(states.counters('sdevid:b', 'meta/setting').get('gallery\u0000x')).toBe(1);
    expect(states.counters('', 'meta/setting', 'global').get('gallery\u0000x')).toBe(1);
  });
});

describe('stepText', () => {
  it('is 1-based, the last step repeating', () => {
    expect([0, 1, 2].map((n) => stepText(n, 2))).toEqual(['1/2', '2/2', '2/2']);
  });
});
