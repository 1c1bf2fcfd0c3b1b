// Issue 41, item 2, through the real CLI: a start-up under `serve --fuzz` with a reset and a delay
// is downloaded as one bundle (GET /__mockvideo/start-ups/ID/bundle) that holds every request and
// the exact bytes each got, the faults, waits, fuzz cases, verdict and clock, and no encoded form of
// the token or of any identifier.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/index.js';
import { parseBundle } from '../../src/bundle/bundle-schema.js';
import { recordedBodyBytes } from '../../src/normalise/index.js';
import { DEVICE_SECRETS, FAULTY_START_UP, faultyBundle, leaks, type Outcome } from '../support/bundles.js';
import { startCli, type CliProcess } from '../support/cli.js';

let serve: CliProcess | undefined;
let outcomes: Outcome[];
let text: string;
let bundle: Bundle;
let disposition: string | null;

beforeAll(async () => {
  ({ outcomes, text, disposition } = await faultyBundle());
  bundle = parseBundle(JSON.parse(text), 'the download');
}, 60_000);

describe('a start-up bundle from GET /__mockvideo/start-ups/ID/bundle', () => {
  it('is a mockvideo-bundle/1 attachment naming the start-up', () => {
    expect(bundle.format).toBe('mockvideo-bundle/1');
    expect(disposition).toBe(`attachment; filename=mockvideo-bundle-${bundle.verdict.id}.json`);
    expect(bundle.mockvideo).toMatch(/^\d+\.\d+\.\d+/);
    expect(bundle.server).toEqual({ mode: 'serve', activeScenario: 'gallery', state: 'client' });
  });

  it('holds every request in order with the exact bytes, status and fault it got', () => {
    expect(bundle.exchanges.map((x) => x.operation)).toEqual(FAULTY_START_UP);
    expect(outcomes[2]).toMatchObject({ reset: true });
    bundle.exchanges.forEach((exchange, i) => {
      const got = outcomes[i]!;
      if ('reset' in got) {
        expect(exchange).toMatchObject({ answer: null, fault: 'reset' });
        return;
      }
      expect(exchange.answer!.status).toBe(got.status);
      expect(Buffer.from(recordedBodyBytes(exchange.answer!)).equals(got.body)).toBe(true);
      expect(exchange.fault).toBe(got.fault ?? null);
      expect(exchange.fuzz).toBe(got.fuzz);
    });
    expect(bundle.exchanges[1]).toMatchObject({ operation: 'meta/cp', fault: 'delay', delayMs: 400 });
    expect(bundle.exchanges.map((x) => x.atMs)).toEqual([...bundle.exchanges.map((x) => x.atMs)].sort((a, b) => a - b));
  });

  it('names the fuzz cases of the answers, the run, the clock and verify verdict', () => {
    const cases = bundle.exchanges.flatMap((x) => (x.fuzz ? [x.fuzz] : []));
    expect(cases).toHaveLength(FAULTY_START_UP.length - 1);
    expect(cases).toContain('42:meta/setting:1');
    expect(bundle.fuzz).toMatchObject({ seed: 42, cases });
    expect(bundle.clock.mode).toBe('real');
    // localplay/recomm was not called: the start-up breaks the one-call rule, which names the device.
    expect(bundle.verdict).toMatchObject({
      startUp: true,
      device: '<REDACTED>',
      ids: bundle.exchanges.map((x) => x.id),
    });
    expect(bundle.verdict.rules.find((r) => r.rule === 'start-up-calls-each-operation-once')).toMatchObject({
      ok: false,
      message: expect.stringContaining('device <REDACTED>'),
    });
    expect(bundle.verdict.suspect).toBe(cases.at(-1));
  });

  it('holds no encoded form of the token or of any identifier; their placeholders instead', () => {
    expect(leaks(text)).toEqual([]);
    const query = new Map(bundle.exchanges[0]!.request.query);
    expect(query.get('_st')).toBe('<SERVICE_TOKEN>');
    for (const name of Object.keys(DEVICE_SECRETS).filter((n) => n !== '_st'))
      expect(query.get(name)).toBe('<REDACTED>');
  });

  it('answers 404 listing the start-ups for an id the journal does not hold', async () => {
    serve = await startCli(['serve', '--port', '0', '--no-watch']);
    const response = await fetch(`${serve.url}/__mockvideo/start-ups/99999/bundle`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(
        /^No start-up 99999 in the journal .*GET \/__mockvideo\/start-ups lists their ids\.$/,
      ),
      code: 'MV_NOT_IN_JOURNAL',
      startUps: [],
    });
  });
});

afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});
