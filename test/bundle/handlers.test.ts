// Issue 41, item 2: `bundleHandlers(loadBundle(FILE))` answers a bundle downloaded from a real
// `serve --fuzz` start-up (a reset, a delay, fuzzed answers) in a unit test as the first device got
// it: the same statuses, bytes and faults in the same order, to another device; a reset is a
// network error, a hang holds the request until it is aborted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleHandlers, onUnhandled, type Bundle } from '../../src/index.js';
import { loadBundle } from '../../src/node.js';
import {
  FAULTY_START_UP,
  OTHER_DEVICE,
  comparable,
  devicePath,
  faultyBundle,
  type Outcome,
} from '../support/bundles.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

const BASE = 'https://api.example.test';
const server = setupServer();
let bundle: Bundle;
let file: string;
let outcomes: Outcome[];

beforeAll(async () => {
  let text: string;
  ({ outcomes, text } = await faultyBundle());
  file = join(tempDir('mockvideo-bundle-'), 'qa-start-up.json');
  writeFileSync(file, text);
  bundle = loadBundle(file);
  server.listen(onUnhandled('error'));
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  removeTempDirs();
});

/** What `fetch` makes of a request, as {@link Outcome}: a network error is `reset`. */
async function fetched(url: string, init?: RequestInit): Promise<Outcome> {
  const start = performance.now();
  try {
    const response = await fetch(url, init);
    return {
      status: response.status,
      body: Buffer.from(await response.arrayBuffer()),
      fault: response.headers.get('x-mockvideo-fault') ?? undefined,
      fuzz: response.headers.get('x-mockvideo-fuzz') ?? undefined,
      ms: performance.now() - start,
    };
  } catch {
    return { reset: true, ms: performance.now() - start };
  }
}

describe('bundleHandlers', () => {
  it('answers another device with the same statuses, bytes and faults in the same order', async () => {
    server.use(...bundleHandlers(bundle, { baseUrl: BASE }));
    const again: Outcome[] = [];
    for (const operation of FAULTY_START_UP) again.push(await fetched(`${BASE}${devicePath(operation, OTHER_DEVICE)}`));
    expect(again.map(comparable)).toEqual(outcomes.map(comparable));
    expect(again[1]!.ms).toBeGreaterThanOrEqual(390);
  });

  it('starts at the top for each set of handlers, and explains a call the bundle does not hold', async () => {
    const misses: string[] = [];
    server.use(...bundleHandlers(bundle, { baseUrl: BASE, onMiss: (report) => misses.push(report.operation) }));
    const recomm = await fetched(`${BASE}${devicePath('localplay/recomm', OTHER_DEVICE)}`);
    expect(recomm).toMatchObject({ status: 404 });
    expect(JSON.parse((recomm as { body: Buffer }).body.toString()).error).toMatch(
      /^The bundle holds no localplay\/recomm request/,
    );
    expect(misses).toEqual(['localplay/recomm']);
    const first = await fetched(`${BASE}${devicePath('ad_config', OTHER_DEVICE)}`);
    expect(comparable(first)).toEqual(comparable(outcomes[0]!));
  });

  it('holds a hang until the request is aborted', async () => {
    const hanging = structuredClone(bundle);
    Object.assign(hanging.exchanges[0]!, { answer: null, fault: 'hang', delayMs: 300_000 });
    server.use(...bundleHandlers(hanging, { baseUrl: BASE }));
    const got = await fetched(`${BASE}${devicePath('ad_config', OTHER_DEVICE)}`, { signal: AbortSignal.timeout(800) });
    expect(got).toMatchObject({ reset: true });
    expect(got.ms).toBeGreaterThanOrEqual(700);
  });

  it('refuses what is not a bundle, naming the format', () => {
    expect(() => bundleHandlers({ log: {} } as unknown as Bundle)).toThrow(
      /^\[mockvideo\] bundleHandlers takes a start-up bundle \(format "mockvideo-bundle\/1"\), got a value without "format"\. Read the file with loadBundle/,
    );
  });

  it('loadBundle names the file of a broken bundle and the field, in one line', () => {
    const broken = join(tempDir('mockvideo-bundle-'), 'broken.json');
    writeFileSync(broken, JSON.stringify({ ...bundle, verdict: { ...bundle.verdict, ok: 'no' } }));
    expect(() => loadBundle(broken)).toThrow(
      new RegExp(
        `^\\[mockvideo\\] Failed to load the bundle ${broken.replace(/[.]/g, '\\.')} at verdict\\.ok: [^\\n]+$`,
      ),
    );
    expect(() => loadBundle(join(broken, '..', 'missing.json'))).toThrow(/missing\.json: no such file\./);
  });
});
