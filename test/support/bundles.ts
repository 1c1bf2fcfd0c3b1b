// A start-up with a reset, a delay and fuzzed answers, as a phone makes it against `serve --fuzz`,
// and what it got: for the bundle tests (test/bundle/), which download its bundle and replay it.
import { request } from 'node:http';
import type { OperationName } from '../../src/contract/index.js';
import { encodedForms } from './recordings.js';
import { clientPathWith } from './sessions.js';

/** The made-up secrets and identifiers of the device of {@link faultyStartUp}: none may be in a bundle. */
export const DEVICE_SECRETS = {
  _st: 'made-up-bundle-token-7f3a9c',
  _sdevid: `${'b0d1e5c0ffee'.repeat(5)}7a7a`,
  _anoyid: '3f2b8c1e-9d4a-4c6e-8b1f-2a7d9e0c5b61',
  _cam: '0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
  _diordna: 'f5e4d3c2b1a09f8e7d6c5b4a39281706',
  _app_coop_md5: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d',
} as const;

/** The operations of {@link faultyStartUp}, in order: meta/setting twice (the first is reset, the client tries again). */
export const FAULTY_START_UP: readonly OperationName[] = [
  'ad_config',
  'meta/cp',
  'meta/setting',
  'meta/setting',
  'meta/plugin',
  'localplay/diversion',
];

/** The faults {@link faultyStartUp} plans first (`POST /__mockvideo/faults`): the first meta/setting reset, the first meta/cp 400 ms late. */
export const START_UP_FAULTS = [
  { operation: 'meta/setting', kind: 'reset', times: 1 },
  { operation: 'meta/cp', kind: 'delay', ms: 400, times: 1 },
] as const;

/** What a request got: its status, a header or two and its exact bytes, or `reset` (no answer: the connection closed). */
export type Outcome =
  | { status: number; body: Buffer; fault: string | undefined; fuzz: string | undefined; ms: number }
  | { reset: true; ms: number };

/** GETs `url` over a fresh connection, as a phone does; a closed connection is `reset`. `ms` is how long it took. */
export function outcomeOf(url: string): Promise<Outcome> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          fault: res.headers['x-mockvideo-fault'] as string | undefined,
          fuzz: res.headers['x-mockvideo-fuzz'] as string | undefined,
          ms: performance.now() - start,
        }),
      );
    });
    req.on('error', () => resolve({ reset: true, ms: performance.now() - start }));
    req.end();
  });
}

/** Another device, of another model and app build, with its own token: what a developer replays a bundle to. */
export const OTHER_DEVICE = {
  _st: 'made-up-other-token-41b2',
  _sdevid: '5e'.repeat(32),
  _model: 'Pixel%208',
  _appver: '2024111190',
} as const;

/** The path of `operation` as the device of {@link DEVICE_SECRETS} (or `device`) sends it. */
export function devicePath(
  operation: OperationName,
  device: Readonly<Record<string, string>> = DEVICE_SECRETS,
): string {
  return clientPathWith(operation, device);
}

/** Plans {@link START_UP_FAULTS} on the server at `url`. */
export async function planStartUpFaults(url: string): Promise<void> {
  for (const fault of START_UP_FAULTS) {
    const response = await fetch(`${url}/__mockvideo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
    if (response.status !== 201) throw new Error(`POST /faults answered ${response.status}: ${await response.text()}`);
  }
}

/** Runs {@link FAULTY_START_UP} against `url` one request after the other (what the test phone does), as `device`; the outcomes in order. */
export async function faultyStartUp(
  url: string,
  device: Readonly<Record<string, string>> = DEVICE_SECRETS,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const operation of FAULTY_START_UP) outcomes.push(await outcomeOf(`${url}${devicePath(operation, device)}`));
  return outcomes;
}

/** The bundle of the one start-up the server at `url` saw (its text as downloaded). */
export async function downloadBundle(url: string): Promise<{ text: string; disposition: string | null }> {
  const { startUps } = (await (await fetch(`${url}/__mockvideo/start-ups`)).json()) as {
    startUps: Array<{ id: number }>;
  };
  if (startUps.length !== 1) throw new Error(`expected one start-up, got ${startUps.length}`);
  const response = await fetch(`${url}/__mockvideo/start-ups/${startUps[0]!.id}/bundle`);
  if (response.status !== 200) throw new Error(`the bundle answered ${response.status}: ${await response.text()}`);
  return { text: await response.text(), disposition: response.headers.get('content-disposition') };
}

/**
 * Serves `serve --fuzz 42 --scenario gallery`, plans {@link START_UP_FAULTS}, runs
 * {@link faultyStartUp} and downloads its bundle; the server is stopped after.
 */
export async function faultyBundle(): Promise<{ outcomes: Outcome[]; text: string; disposition: string | null }> {
  const { startCli } = await import('./cli.js');
  const serve = await startCli(['serve', '--port', '0', '--no-watch', '--fuzz', '42', '--scenario', 'gallery']);
  try {
    await planStartUpFaults(serve.url);
    const outcomes = await faultyStartUp(serve.url);
    await journaled(serve.url, FAULTY_START_UP.length);
    return { outcomes, ...(await downloadBundle(serve.url)) };
  } finally {
    await serve.stop();
  }
}

/** What an outcome says when compared across servers: status, bytes and fault, or the reset; not how long it took. */
export function comparable(outcome: Outcome) {
  return 'reset' in outcome
    ? { reset: true }
    : { status: outcome.status, body: outcome.body.toString('base64'), fault: outcome.fault, fuzz: outcome.fuzz };
}

/** Every encoded form of every secret and identifier of {@link DEVICE_SECRETS} found in `text` (empty: none leaked). */
export function leaks(text: string): string[] {
  return Object.values(DEVICE_SECRETS).flatMap((value) => encodedForms(value).filter((form) => text.includes(form)));
}

/** Waits until the journal at `url` holds `count` requests (they are journaled once answered). */
export async function journaled(url: string, count: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const { total } = (await (await fetch(`${url}/__mockvideo/requests`)).json()) as { total: number };
    if (total >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the journal of ${url} did not get ${count} requests`);
}
