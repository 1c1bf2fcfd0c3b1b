import { describe, expect, it, vi } from 'vitest';
import { FaultBoard, type FaultPlan } from './board.js';
import { parseFaultFlag, parseFaultPlan } from './plan.js';
import { combineFaults, faultHits, faultSpec, FAULT_DEFAULTS } from './fault.js';
import { malformedBody } from './malformed.js';

describe('fault plans', () => {
  it('reads --fault flags', () => {
    expect(parseFaultFlag('meta/setting=reset')).toEqual({ operation: 'meta/setting', fault: { kind: 'reset' } });
    expect(parseFaultFlag('delay:200-800')).toEqual({ fault: { kind: 'delay', ms: [200, 800] } });
    expect(parseFaultFlag('*=status')).toEqual({ fault: { kind: 'status', status: 500 } });
    expect(parseFaultFlag('ad_config=envelope:-3')).toEqual({
      operation: 'ad_config',
      fault: { kind: 'envelope', result: -3 },
    });
  });

  it.each([
    ['meta/nope=reset', /"operation" must be one of ad_config, meta\/cp/],
    ['meta/cp=explode', /Kinds: delay, status, envelope, malformed-json, empty, reset, hang/],
    ['delay:99999999', /--fault delay:99999999: Invalid fault: "ms"/],
  ])('names what is wrong in --fault %s', (flag, message) => {
    expect(() => parseFaultFlag(flag)).toThrow(message);
  });

  it('bounds times', () => {
    expect(() => parseFaultPlan({ kind: 'reset', times: 1e9 })).toThrow(/"times" must be an integer from 1 to 100000/);
    expect(() => parseFaultPlan({ kind: 'reset', times: 0 })).toThrow(/"times"/);
  });

  it('applies a planned fault to the next `times` requests of its operation only', () => {
    const board = new FaultBoard();
    board.add({ operation: 'meta/setting', fault: { kind: 'reset' }, times: 2 });
    expect(board.take('meta/cp')).toEqual([]);
    expect(board.take('meta/setting')).toEqual([{ kind: 'reset' }]);
    expect(board.take('meta/setting')).toEqual([{ kind: 'reset' }]);
    expect(board.take('meta/setting')).toEqual([]);
    expect(board.list()[0]).toMatchObject({ fired: 2, remaining: 0 });
  });

  it('prunes used-up faults when the next one is planned, so repeated plans never pile up (issue 34)', () => {
    const board = new FaultBoard();
    for (let n = 0; n < 50; n++) {
      board.add({ operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
      expect(board.take('meta/cp')).toEqual([{ kind: 'reset' }]);
    }
    // The last one stays listed, used up, until another is planned.
    expect(board.list()).toHaveLength(1);
    expect(board.list()[0]).toMatchObject({ remaining: 0, fired: 1 });
    board.add({ fault: { kind: 'reset' } });
    board.add({ operation: 'meta/setting', fault: { kind: 'reset' }, times: 1, state: 'client' });
    board.take('meta/setting', { query: '_sdevid=a' });
    board.add({ operation: 'meta/plugin', fault: { kind: 'reset' }, times: 1 });
    // Until-cleared and per-client faults are kept: a new client still gets the per-client one.
    expect(board.list().map((planned) => planned.spec)).toEqual(['reset', 'meta/setting=reset', 'meta/plugin=reset']);
  });

  it('hits a deterministic share with a rate and seed', () => {
    const hits = (seed: number) => Array.from({ length: 1000 }, (_, n) => faultHits({ rate: 0.3, seed }, n));
    const share = hits(7).filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(hits(7)).toEqual(hits(7));
    expect(hits(8)).not.toEqual(hits(7));
  });

  // Issue 20, item 1: `serve --fault meta/cp=status` worked, the same fault through the admin API
  // answered 400 ("status": expected number, "ms": Invalid input).
  it('fills the same defaults in the JSON form (admin API, scenario files) as in the flag form', () => {
    expect(parseFaultPlan({ operation: 'meta/cp', kind: 'status', times: 1 })).toEqual({
      operation: 'meta/cp',
      times: 1,
      fault: { kind: 'status', status: FAULT_DEFAULTS.status },
    });
    expect(parseFaultPlan({ kind: 'delay' })).toEqual({ fault: { kind: 'delay', ms: [1000, 3000] } });
    for (const flag of [
      'status',
      'delay',
      'envelope',
      'meta/cp=status',
      'ad_config=envelope:-3',
      'delay:200-800',
      'hang',
    ]) {
      const fromFlag = parseFaultFlag(flag);
      expect(
        parseFaultPlan({ ...(fromFlag.operation ? { operation: fromFlag.operation } : {}), ...fromFlag.fault }),
      ).toEqual(fromFlag);
      expect(parseFaultFlag(faultSpec(fromFlag.operation, fromFlag.fault))).toEqual(fromFlag);
    }
    expect(parseFaultFlag('status').fault).toEqual({ kind: 'status', status: 500 });
    expect(() => parseFaultFlag('reset:5')).toThrow(/"reset" takes no ARG/);
  });

  // Issue 20, item 2: with `--fault delay:200-800 --fault localplay/recomm=reset` the first match won:
  // recomm was delayed and never reset (swapped, it reset and was not delayed).
  it.each([[['delay:200-800', 'localplay/recomm=reset']], [['localplay/recomm=reset', 'delay:200-800']]])(
    'applies every --fault, the most specific per kind of effect: %j',
    (flags) => {
      const board = new FaultBoard();
      for (const flag of flags) board.add(parseFaultFlag(flag));
      expect(board.take('localplay/recomm')).toEqual([{ kind: 'delay', ms: [200, 800] }, { kind: 'reset' }]);
      expect(board.take('meta/cp')).toEqual([{ kind: 'delay', ms: [200, 800] }]);
    },
  );

  it('prefers the fault of the operation over the one of every operation, then the one planned last', () => {
    const board = new FaultBoard();
    board.add(parseFaultFlag('meta/cp=status:503'));
    board.add(parseFaultFlag('status:502'));
    board.add(parseFaultFlag('empty'));
    expect(board.take('meta/cp')).toEqual([{ kind: 'status', status: 503 }]);
    expect(board.take('ad_config')).toEqual([{ kind: 'empty' }]);
    board.add({ operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
    expect(board.take('meta/cp')).toEqual([{ kind: 'reset' }]);
    expect(board.take('meta/cp')).toEqual([{ kind: 'status', status: 503 }]);
    expect(board.list().map((p) => p.spec)).toEqual(['meta/cp=status:503', 'status:502', 'empty', 'meta/cp=reset']);
  });

  it('lets server-wide faults win over a scenario fault kind by kind', () => {
    const delay = { kind: 'delay', ms: 300 } as const;
    const reset = { kind: 'reset' } as const;
    expect(combineFaults([delay], reset)).toEqual([delay, reset]);
    expect(combineFaults([reset], delay)).toEqual([delay, reset]);
    expect(combineFaults([reset], { kind: 'empty' })).toEqual([reset]);
    expect(combineFaults([], reset)).toEqual([reset]);
  });
});

// Issue 20, item 8: malformed-json always sent the same cut `meta/setting` text, whatever the operation.
describe('malformedBody', () => {
  it('cuts the answer it is given, so that it does not parse', () => {
    const answer = JSON.stringify({ data: [{ id: 'x', name: 'Ünïcode 😀 provider' }], msg: 'OK', result: 1 });
    const body = malformedBody(answer);
    expect(answer.startsWith(body)).toBe(true);
    expect(body.length).toBeGreaterThan(answer.length / 3);
    expect(() => JSON.parse(body)).toThrow();
    expect(() => JSON.parse(malformedBody(''))).toThrow();
  });
});

describe('FaultBoard state (issue 18)', () => {
  const reset = { kind: 'reset' } as const;

  it('counts times per client in client state: each client gets the fault that often', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: reset, times: 1 });
    const take = (client: string) => board.take('meta/cp', { query: `_sdevid=${client}` })[0]?.kind ?? null;
    expect([take('a'), take('a'), take('b'), take('b')]).toEqual(['reset', null, 'reset', null]);
    expect(board.list()[0]).toMatchObject({ state: 'client', times: 1, remaining: 0, fired: 2 });
    board.resetClients('sdevid:a');
    expect(take('a')).toBe('reset');
    expect(take('b')).toBeNull();
  });

  it('counts times for the whole server in global state, or when the fault says so', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: reset, times: 1, state: 'global' });
    expect(
      [board.take('meta/cp', { query: '_sdevid=a' }), board.take('meta/cp', { query: '_sdevid=b' })].map(
        (f) => f[0]?.kind ?? null,
      ),
    ).toEqual(['reset', null]);
    expect(board.list()[0]).toMatchObject({ state: 'global', remaining: 0, fired: 1 });
  });

  it('applies a fault without times to every request of every client until cleared', () => {
    const board = new FaultBoard('client');
    board.add({ fault: reset });
    for (const client of ['a', 'b', 'c'])
      expect(board.take('ad_config', { query: `_sdevid=${client}` })[0]?.kind).toBe('reset');
    expect(board.list()[0]).toMatchObject({ remaining: null, fired: 3 });
  });

  it('keeps the delay and the outcome of per-client faults apart: one device using its reset leaves the delay', () => {
    const board = new FaultBoard('client');
    board.add({ fault: { kind: 'delay', ms: [10, 10] } });
    board.add({ operation: 'meta/cp', fault: reset, times: 1 });
    expect(board.take('meta/cp', { query: '_sdevid=a' }).map((f) => f.kind)).toEqual(['delay', 'reset']);
    expect(board.take('meta/cp', { query: '_sdevid=a' }).map((f) => f.kind)).toEqual(['delay']);
    expect(board.take('meta/cp', { query: '_sdevid=b' }).map((f) => f.kind)).toEqual(['delay', 'reset']);
  });
});

describe('FaultBoard per-client counts (issue 34.9)', () => {
  it('a new device costs the same with 4,096 devices known: no step walks the known clients', () => {
    const board = new FaultBoard('client');
    for (let i = 0; i < 4; i++) board.add({ operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
    // Object.keys of the known clients at each new one: counted by a spy on it.
    const keys = vi.spyOn(Object, 'keys');
    for (let i = 0; i < 5_000; i++) board.take('meta/cp', { query: `_sdevid=${i}` });
    expect(keys).not.toHaveBeenCalled();
    keys.mockRestore();
    // The fault planned last took each request. Bounded: the oldest is forgotten beyond 4,096
    // clients (it gets that fault again), the newest kept (it gets the next one).
    const fired = () => board.list().map((planned) => planned.fired);
    expect(fired()).toEqual([0, 0, 0, 5_000]);
    board.take('meta/cp', { query: '_sdevid=0' });
    expect(fired()).toEqual([0, 0, 0, 5_001]);
    board.take('meta/cp', { query: '_sdevid=4999' });
    expect(fired()).toEqual([0, 0, 1, 5_001]);
    // The listing the admin API and event stream serialise holds no per-client data.
    expect(JSON.stringify(board.list()).length).toBeLessThan(2_000);
  });
});

// Issue 39, L8: 1,000 planned faults took serve from 8,900 to ~1,000 req/s and to 413–833 MB (a
// counter per fault × device); a take walked every planned fault.
describe('FaultBoard with the 1,000 faults of the cap (issue 39, L8)', () => {
  const reset = { kind: 'reset' } as const;
  const plan = (board: FaultBoard, n: number, extra: Partial<FaultPlan> = {}) => {
    for (let i = 0; i < n; i++) board.add({ operation: 'meta/cp', fault: reset, times: 1, ...extra });
  };

  it('each device gets each per-device fault once, the newest first, then none; another device gets them all again', () => {
    const board = new FaultBoard('client');
    for (let ms = 0; ms < 1000; ms++) board.add({ operation: 'meta/cp', fault: { kind: 'delay', ms }, times: 1 });
    const took = (client: string) =>
      board.take('meta/cp', { query: `_sdevid=${client}` }).map((f) => (f.kind === 'delay' ? f.ms : f.kind));
    const a = Array.from({ length: 1000 }, () => took('a')).flat();
    expect(a).toEqual(Array.from({ length: 1000 }, (_, i) => 999 - i));
    expect([took('a'), took('a'), took('b')]).toEqual([[], [], [999]]);
    // A fault planned later is the newest again, for a device that used up all the others too.
    board.add({ operation: 'meta/cp', fault: { kind: 'delay', ms: 5000 }, times: 1 });
    expect([took('a'), took('a')]).toEqual([[5000], []]);
    expect(board.list().at(-2)).toMatchObject({ fired: 2, remaining: 0, seen: 2 });
  });

  it('mixes faults counted per device and for the server in plan order; the operation’s lane first', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: { kind: 'status', status: 501 }, times: 1 });
    board.add({ operation: 'meta/cp', fault: { kind: 'status', status: 502 }, times: 1, state: 'global' });
    board.add({ fault: { kind: 'status', status: 503 } });
    const status = (client: string) =>
      (board.take('meta/cp', { query: `_sdevid=${client}` })[0] as { status?: number } | undefined)?.status;
    // The global one (planned last in the operation's lane), then a's own, then every operation's.
    expect([status('a'), status('a'), status('a'), status('b'), status('b')]).toEqual([502, 501, 503, 501, 503]);
  });

  it('a device with a 7.9 KB _sdevid costs its id once, not once per fault; the devices’ counts are bounded by bytes', () => {
    const board = new FaultBoard('client');
    plan(board, 1000);
    const id = (i: number) => `${i}`.padEnd(7900, 'x');
    for (let i = 0; i < 3000; i++) board.take('meta/cp', { query: `_sdevid=${id(i)}` });
    // A device seen again gets the fault planned last when it was forgotten, the one before when it is remembered.
    const again = (i: number) => {
      const before = board.list().map((planned) => planned.fired);
      board.take('meta/cp', { query: `_sdevid=${id(i)}` });
      return board.list().findIndex((planned, n) => planned.fired !== before[n]) + 1;
    };
    // ~500 devices of 16 KB fit in the 8 MiB of per-device state (docs/security.md, "Bounds"): the oldest are forgotten.
    expect([again(2999), again(2999 - 400), again(0), again(2999 - 700)]).toEqual([999, 999, 1000, 1000]);
  });

  it('notes what changed: a take changes only the faults it counted, so the event stream sends those', () => {
    const board = new FaultBoard('client');
    plan(board, 1000);
    const before = board.version;
    board.take('meta/cp', { query: '_sdevid=a' });
    board.take('ad_config', { query: '_sdevid=a' });
    expect(board.changedSince(before).map((p) => p.id)).toEqual([1000]);
    const after = board.version;
    expect(board.changedSince(after)).toEqual([]);
    board.add({ fault: reset });
    expect(board.changedSince(after).map((p) => p.id)).toEqual([1001]);
    board.clear();
    expect(board.version).toBeGreaterThan(after);
    expect(board.changedSince(0)).toEqual([]);
  });
});

describe('FaultBoard faults aimed at one device (issue 41)', () => {
  const a = { query: '_sdevid=a1&_ts=1' };
  const b = { query: '_sdevid=b2&_ts=1' };

  it('reads "device" in the JSON form and @DEVICE in the flag form, and writes it back in the spec', () => {
    expect(parseFaultFlag('meta/cp=status:503@a1')).toEqual({
      operation: 'meta/cp',
      device: 'a1',
      fault: { kind: 'status', status: 503 },
    });
    expect(parseFaultFlag('reset@address:::1')).toEqual({ device: 'address:::1', fault: { kind: 'reset' } });
    expect(parseFaultPlan({ kind: 'reset', device: 'a1' })).toEqual({ device: 'a1', fault: { kind: 'reset' } });
    expect(faultSpec('meta/cp', { kind: 'status', status: 503 }, 'a1')).toBe('meta/cp=status:503@a1');
    const board = new FaultBoard();
    for (const flag of ['meta/cp=status:503@a1', 'delay:200-800@a1', 'reset@anoyid:u1'])
      expect(board.add(parseFaultFlag(flag)).spec).toBe(flag);
    expect(() => parseFaultFlag('reset@')).toThrow(/--fault reset@: "device" must be the _sdevid of one device/);
    expect(() => parseFaultPlan({ kind: 'reset', device: 'x'.repeat(513) })).toThrow(/1 to 512 characters/);
    expect(() => parseFaultPlan({ kind: 'reset', device: 'a\u0007' })).toThrow(
      /no control character \(or left out for every device\), got "a\\u0007"\.$/,
    );
  });

  it('reaches only its device, named by _sdevid or as clientOf names a device without one', () => {
    const board = new FaultBoard('client');
    board.add({ device: 'a1', operation: 'meta/cp', fault: { kind: 'reset' } });
    board.add({ device: 'address:10.0.2.16', fault: { kind: 'empty' } });
    expect(board.take('meta/cp', a)).toEqual([{ kind: 'reset' }]);
    expect(board.take('meta/cp', b)).toEqual([]);
    expect(board.take('meta/setting', a)).toEqual([]);
    expect(board.take('meta/cp', { query: '_ts=1', address: '10.0.2.16' })).toEqual([{ kind: 'empty' }]);
    expect(board.take('meta/cp')).toEqual([]);
  });

  it('wins over a fault for every device, even one for the operation; then the operation, then the newest', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: { kind: 'status', status: 502 } });
    board.add({ device: 'a1', fault: { kind: 'status', status: 503 } });
    board.add({ fault: { kind: 'delay', ms: 5 } });
    expect(board.take('meta/cp', a)).toEqual([
      { kind: 'delay', ms: 5 },
      { kind: 'status', status: 503 },
    ]);
    expect(board.take('meta/cp', b)).toEqual([
      { kind: 'delay', ms: 5 },
      { kind: 'status', status: 502 },
    ]);
    board.add({ device: 'a1', operation: 'meta/cp', fault: { kind: 'status', status: 504 } });
    board.add({ device: 'a1', fault: { kind: 'status', status: 505 } });
    expect(board.take('meta/cp', a)).toEqual([
      { kind: 'delay', ms: 5 },
      { kind: 'status', status: 504 },
    ]);
    expect(board.take('meta/setting', a)).toEqual([
      { kind: 'delay', ms: 5 },
      { kind: 'status', status: 505 },
    ]);
  });

  it('with times: used up for its device (per device or for the server), then the next one takes over', () => {
    const board = new FaultBoard('client');
    board.add({ operation: 'meta/cp', fault: { kind: 'status', status: 502 } });
    const perDevice = board.add({ device: 'a1', operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
    const global = board.add({ device: 'a1', fault: { kind: 'empty' }, times: 1, state: 'global' });
    expect(board.take('meta/setting', a)).toEqual([{ kind: 'empty' }]);
    expect(board.take('meta/setting', a)).toEqual([]);
    expect(board.take('meta/cp', a)).toEqual([{ kind: 'reset' }]);
    expect(board.take('meta/cp', a)).toEqual([{ kind: 'status', status: 502 }]);
    expect(board.list().find((p) => p.id === perDevice.id)).toMatchObject({ fired: 1, remaining: 0 });
    board.prune();
    expect(board.list().map((p) => p.id)).not.toContain(global.id);
    // Another device never saw them.
    expect(board.take('meta/cp', b)).toEqual([{ kind: 'status', status: 502 }]);
  });

  it('costs another device nothing: 1,000 faults aimed at other devices leave its answer and counts alone', () => {
    const board = new FaultBoard('client');
    for (let n = 0; n < 1000; n++) board.add({ device: `d${n}`, fault: { kind: 'reset' }, times: 1 });
    expect(board.take('meta/cp', b)).toEqual([]);
    expect(board.take('meta/cp', { query: '_sdevid=d999' })).toEqual([{ kind: 'reset' }]);
    expect(
      board
        .list()
        .filter((p) => p.fired > 0)
        .map((p) => p.spec),
    ).toEqual(['reset@d999']);
    board.clear();
    expect(board.take('meta/cp', { query: '_sdevid=d1' })).toEqual([]);
  });
});
