// Issue 40, item 1: each mode builds one routes-options value, and both engines are made from it.
// Every flag of `serve` and `replay` (read from their --help, so a new flag fails this test until it
// has a row below) either changes answers, and then both engines answer the same requests with the
// same statuses, headers and bytes under it, or says here why it does not. A new flag is one row,
// never a new test. Bounded: about 40 requests per server, two servers at a time, on 127.0.0.1.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { runCli, startCli } from '../support/cli.js';
import { recordSession, tempDir } from '../support/recordings.js';
import { startUpstream, useUpstream, type Upstream } from '../support/upstream.js';

const upstream = useUpstream();
// A frozen clock at about now: the client's `_ts` (the real time) stays within the accepted skew.
const CLOCK = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
const TS = String(Date.parse(CLOCK) / 1000);
const DEVICES = ['a', 'b'].map((c) => c.repeat(64));
/** `path` as `device` sends it, at the same `_ts` for every server (the near-miss report quotes it). */
const asDevice = (path: string, device: string) =>
  path.replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device}`).replace(/_ts=\d+/, `_ts=${TS}`);

/** Upstreams of one server each: the fake counts meta/setting calls, so each server needs its own. */
const ownUpstreams: Upstream[] = [];
async function ownUpstream(): Promise<string> {
  const started = await startUpstream();
  ownUpstreams.push(started);
  return started.url;
}
afterAll(async () => {
  await Promise.all(ownUpstreams.map((started) => started.close()));
});

/** What a flag is in this test: the arguments that put it to work, or why answers do not depend on it. */
type Row = { args: () => string[] | Promise<string[]>; pause?: number } | { same: string };

/** Flags that are not about answers, for both commands. */
const NOT_ANSWERS: Record<string, Row> = {
  log: { same: 'the terminal log' },
  quiet: { same: 'the terminal log' },
  verbose: { same: 'the terminal log' },
  config: { same: 'where flag values come from; each flag is then a row of its own' },
  version: { same: 'prints the version and exits' },
  help: { same: 'prints the help and exits' },
  port: { same: 'where it listens' },
  host: { same: 'where it listens' },
  engine: { same: 'the axis of this test' },
  watch: { same: 'reloads files when they change (test/record-replay/watch.test.ts)' },
  'journal-size': { same: 'how many requests the journal keeps' },
  'admin-token': { same: 'who may change the server through the admin API' },
  https: { same: 'the transport (TLS): the same answers (test/devices/)' },
  'https-port': { same: 'the transport (TLS): the same answers (test/devices/)' },
  cert: { same: 'the transport (TLS): the same answers (test/devices/)' },
  key: { same: 'the transport (TLS): the same answers (test/devices/)' },
  junit: { same: 'the report written when the server stops' },
  'fail-on': { same: 'the exit code and report when the server stops' },
};

/** Flags both commands take that change answers. */
const SHARED: Record<string, Row> = {
  'scenarios-dir': { args: () => ['--scenarios-dir', scenariosDir(), '--device-scenario', `${DEVICES[1]}=mine`] },
  'strict-requests': { args: () => ['--strict-requests'] },
  fault: {
    args: () =>
      [
        'meta/cp=status:503',
        'ad_config=malformed-json',
        'meta/plugin=envelope:0',
        'localplay/recomm=empty',
        'meta/setting=reset',
        `localplay/diversion=status:500@${DEVICES[0]}`,
      ].flatMap((fault) => ['--fault', fault]),
  },
  'device-scenario': { args: () => ['--device-scenario', `${DEVICES[0]}=gallery`, '--fallback-scenario', 'default'] },
  state: { args: () => ['--state', 'global'] },
  // Rounds 2.5 s apart, a round's requests well within 1 s even on a loaded machine.
  gap: { args: () => ['--gap', '1'], pause: 2500 },
  clock: { args: () => ['--clock', '2026-01-31T12:00:00Z'] },
  'clock-offset': { args: () => ['--clock-offset', '-2d'] },
  latency: { args: () => ['--latency', '0.5'] },
  'analytics-path': { args: () => ['--analytics-path', '/log/collect'] },
};

let recordings = '';
let fuzzCase = '';

const SERVE: Record<string, Row> = {
  ...NOT_ANSWERS,
  ...SHARED,
  // `--fallback-scenario` is replay's; serve steers the device by its own scenario.
  'device-scenario': { args: () => ['--device-scenario', `${DEVICES[0]}=gallery`] },
  scenario: { args: () => ['--scenario', 'settings-twice'] },
  replay: { args: () => ['--replay', copyOf(recordings)] },
  fuzz: { args: () => ['--fuzz', '7'] },
  'fuzz-case': { args: () => ['--fuzz', '7', '--fuzz-case', fuzzCase] },
  'fuzz-beyond-observed': { args: () => ['--fuzz', '7', '--fuzz-beyond-observed'] },
  'fuzz-integers': { args: () => ['--fuzz', '7', '--fuzz-integers', '64'] },
  'fuzz-classes': { args: () => ['--fuzz', '7', '--fuzz-classes', 'items-many'] },
  'fuzz-exclude': { args: () => ['--fuzz', '7', '--fuzz-exclude', 'items-many'] },
  'fuzz-per-device': { args: () => ['--fuzz', '7', '--fuzz-per-device'] },
};

const forRecordMissing = {
  same: "how --record-missing forwards and stores (test/record-replay/): replay's answers are the upstream's",
};
const REPLAY: Record<string, Row> = {
  ...NOT_ANSWERS,
  ...SHARED,
  'scenarios-dir': {
    args: () => ['--scenarios-dir', scenariosDir(), '--fallback-scenario', 'mine', '--match', 'strict'],
  },
  match: { args: () => ['--match', 'strict'] },
  'fallback-scenario': { args: () => ['--fallback-scenario', 'gallery', '--volatile', '_nonce'] },
  'record-missing': {
    args: async () => ['--record-missing', '--upstream', await ownUpstream(), '--volatile', '_nonce'],
  },
  upstream: { args: async () => ['--record-missing', '--upstream', await ownUpstream(), '--identity', '_anoyid'] },
  volatile: { args: () => ['--volatile', '_nonce', '--match', 'strict'] },
  secret: { args: () => ['--secret', '_res', '--match', 'strict'] },
  identity: { args: () => ['--identity', '_anoyid'] },
  'keep-identifiers': forRecordMissing,
  'redact-header': forRecordMissing,
  'secret-cookie': forRecordMissing,
  'secret-value': forRecordMissing,
  'upstream-timeout': forRecordMissing,
  'insecure-upstream': forRecordMissing,
  'record-failures': forRecordMissing,
  'allow-host': forRecordMissing,
};

/** A scenario folder with `mine`: default with one setting changed. */
function scenariosDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-flags-'));
  writeFileSync(
    join(dir, 'mine.json'),
    JSON.stringify({ extends: 'default', operations: { 'meta/setting': { data: { recommend_exit_times: 0 } } } }),
  );
  return dir;
}

/** A copy of the recording folder, for a server that may write to it (`--record-missing`). */
function copyOf(dir: string): string {
  const copy = tempDir('mockvideo-flags-rec-');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** `args` behind the frozen clock, unless they give one of their own. */
const clockOr = (args: string[]) => (args.includes('--clock') ? args : ['--clock', CLOCK, ...args]);

/** The flags a command's --help lists. */
async function flagsOf(command: 'serve' | 'replay'): Promise<string[]> {
  const { stdout } = await runCli([command, '--help']);
  return [...new Set([...stdout.matchAll(/^\s+(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1]!))];
}

/** One answer as a device sees it: status, headers (but the date and connection ones) and bytes, or that the connection failed. */
async function answerOf(url: string, init?: RequestInit) {
  try {
    const response = await fetch(url, init);
    // Each server's own origin reads ORIGIN: answers name it (media, plugin and upgrade links).
    const origin = new URL(url).origin;
    const own = (text: string) => text.replaceAll(origin, 'ORIGIN');
    const headers = [...response.headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
      .map(([name, value]) => [name, own(value)]);
    return {
      status: response.status,
      headers,
      body: own(Buffer.from(await response.arrayBuffer()).toString('latin1')),
    };
  } catch {
    return { failed: true };
  }
}

/** The same requests, in the same order, of two devices, twice (sequences), and a few odd ones. */
async function answersOf(base: string, pause = 0) {
  const seen: Array<[string, unknown]> = [];
  for (const round of [1, 2]) {
    if (round === 2 && pause) await new Promise((resolve) => setTimeout(resolve, pause));
    for (const device of DEVICES)
      for (const operation of OPERATION_NAMES) {
        const path = asDevice(clientPath(operation), device);
        seen.push([`${round} ${device[0]} ${operation}`, await answerOf(`${base}${path}`)]);
      }
  }
  const cp = asDevice(clientPath('meta/cp'), DEVICES[0]!);
  seen.push(['HEAD meta/cp', await answerOf(`${base}${cp}`, { method: 'HEAD' })]);
  seen.push(['gallery prefix', await answerOf(`${base}/scenarios/gallery${cp}`)]);
  seen.push(['without _st', await answerOf(`${base}${cp.replace(/&_st=[^&]*/, '')}`)]);
  seen.push(['no such operation', await answerOf(`${base}/api/g1/meta/nope`)]);
  for (const path of ['/__mockvideo/analytics', '/log/collect'])
    seen.push([
      `POST ${path}`,
      await answerOf(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }),
    ]);
  return seen;
}

beforeAll(async () => {
  ({ dir: recordings } = await recordSession(upstream.url, [
    ...OPERATION_NAMES.map((operation) => clientPath(operation)),
    clientPath('meta/setting'),
  ]));
  const server = await startCli(['serve', '--port', '0', '--no-watch', '--fuzz', '7']);
  try {
    fuzzCase = (await fetch(`${server.url}${clientPath('meta/plugin')}`)).headers.get('x-mockvideo-fuzz')!;
  } finally {
    await server.stop();
  }
}, 60_000);

describe.each([
  ['serve', SERVE, (args: string[]) => ['serve', '--port', '0', '--no-watch', ...clockOr(args)]],
  ['replay', REPLAY, (args: string[]) => ['replay', copyOf(recordings), '--port', '0', '--no-watch', ...clockOr(args)]],
] as const)('%s', (command, table, argv) => {
  it('has a row for every flag its --help lists, and none for a flag it does not take', async () => {
    const flags = await flagsOf(command);
    expect(flags.filter((flag) => !(flag in table))).toEqual([]);
    expect(Object.keys(table).filter((flag) => !flags.includes(flag))).toEqual([]);
  });

  const changing = Object.entries(table).filter(
    (entry): entry is [string, Extract<Row, { args: unknown }>] => 'args' in entry[1],
  );
  // Rows run a few at a time: each mostly waits for its two servers to start.
  it.concurrent.for(changing)(
    '--%s: both engines give the same statuses, headers and bytes',
    async ([, row], { expect }) => {
      // Each engine its own arguments: a folder of its own where one is copied (--record-missing writes to it).
      const [routes, msw] = await Promise.all(
        ['routes', 'msw'].map(async (engine) => startCli([...argv(await row.args()), '--engine', engine])),
      );
      try {
        const [a, b] = await Promise.all([answersOf(routes!.url, row.pause), answersOf(msw!.url, row.pause)]);
        for (const [i, [label, answer]] of b.entries()) expect(answer, label).toEqual(a[i]![1]);
      } finally {
        await Promise.all([routes!.stop(), msw!.stop()]);
      }
    },
  );
});
