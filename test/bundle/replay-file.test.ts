// Issue 41, item 2, through the real CLI: `mockvideo replay FILE` answers a bundle's requests in its
// order, to another device, with the statuses, bytes and faults the first device got (a reset a
// reset, a delay a delay, a hang a hang), with either engine; a request the bundle does not hold
// gets the near-miss report.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FAULTY_START_UP,
  OTHER_DEVICE,
  comparable,
  devicePath,
  faultyBundle,
  faultyStartUp,
  outcomeOf,
  type Outcome,
} from '../support/bundles.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

let file: string;
let text: string;
let outcomes: Outcome[];
let cli: CliProcess | undefined;

beforeAll(async () => {
  ({ outcomes, text } = await faultyBundle());
  file = join(tempDir('mockvideo-bundle-'), 'mockvideo-bundle.json');
  writeFileSync(file, text);
}, 60_000);
afterEach(async () => {
  await cli?.stop();
  cli = undefined;
});
afterAll(removeTempDirs);

/** A GET the client gives up on after `ms` milliseconds: `gave up`, else the status, or `closed` when the connection closed first. */
function giveUpAfter(url: string, ms: number): Promise<number | 'gave up' | 'closed'> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('closed'));
    setTimeout(() => {
      resolve('gave up');
      req.destroy();
    }, ms);
    req.end();
  });
}

describe.each(['routes', 'msw'])('mockvideo replay FILE (--engine %s)', (engine) => {
  it('answers another device with the same statuses, bytes and faults in the same order', async () => {
    cli = await startCli(['replay', file, '--port', '0', '--engine', engine]);
    expect(cli.stdout()).toMatch(
      /^mockvideo replaying the bundle .* \(start-up \d+: 6 requests, in their order, to any device\)/,
    );
    const again = await faultyStartUp(cli.url, OTHER_DEVICE);
    expect(again.map(comparable)).toEqual(outcomes.map(comparable));
    // The delay is a delay again (400 ms planned; generous for a loaded machine).
    expect(again[1]!.ms).toBeGreaterThanOrEqual(390);
    const { requests } = (await (await fetch(`${cli.url}/__mockvideo/requests`)).json()) as {
      requests: Array<{ match: string; recording: string; fault: string | null; status: number }>;
    };
    expect(requests.map((r) => [r.match, r.recording, r.fault, r.status])).toEqual([
      ['bundle', 'exchanges[0]', null, 200],
      ['bundle', 'exchanges[1]', 'delay', 200],
      ['bundle', 'exchanges[2]', 'reset', 0],
      ['bundle', 'exchanges[3]', null, 200],
      ['bundle', 'exchanges[4]', null, 200],
      ['bundle', 'exchanges[5]', null, 200],
    ]);
  });

  it('answers a request the bundle does not hold with the near-miss report, and prints it', async () => {
    cli = await startCli(['replay', file, '--port', '0', '--engine', engine]);
    const recomm = await outcomeOf(`${cli.url}${devicePath('localplay/recomm', OTHER_DEVICE)}`);
    expect(recomm).toMatchObject({ status: 404 });
    const report = JSON.parse((recomm as { body: Buffer }).body.toString());
    expect(report).toMatchObject({
      error:
        'The bundle holds no localplay/recomm request: its start-up did not call localplay/recomm. The app does something the bundle did not see.',
      operation: 'localplay/recomm',
      nearMisses: [],
    });
    await faultyStartUp(cli.url, OTHER_DEVICE);
    const third = await outcomeOf(`${cli.url}${devicePath('meta/setting', OTHER_DEVICE)}`);
    const beyond = JSON.parse((third as { body: Buffer }).body.toString());
    expect(beyond.error).toMatch(
      /^The bundle holds 2 meta\/setting requests of its start-up, all answered to this device: this is its call 3\./,
    );
    expect(beyond.nearMisses.map((m: { recording: string }) => m.recording)).toEqual(['exchanges[2]']);
    expect(cli.stdout()).toContain('Request was not matched: GET localplay/recomm');
  });
});

describe('mockvideo replay FILE', () => {
  it('keeps a hang a hang: the connection stays open without an answer', async () => {
    const bundle = JSON.parse(text);
    const diversion = bundle.exchanges.findIndex((x: { operation: string }) => x.operation === 'localplay/diversion');
    Object.assign(bundle.exchanges[diversion], { answer: null, fault: 'hang', delayMs: 300_000 });
    const hanging = join(tempDir('mockvideo-bundle-'), 'hang.json');
    writeFileSync(hanging, JSON.stringify(bundle));
    cli = await startCli(['replay', hanging, '--port', '0']);
    const url = (op: (typeof FAULTY_START_UP)[number]) => `${cli!.url}${devicePath(op, OTHER_DEVICE)}`;
    for (const op of FAULTY_START_UP.slice(0, diversion)) await outcomeOf(url(op));
    expect(await giveUpAfter(url('localplay/diversion'), 1500)).toBe('gave up');
  });

  it('refuses a broken bundle in one line naming the file and the field, and a folder-only flag', async () => {
    const bundle = JSON.parse(text);
    bundle.exchanges[1].answer.status = 'ok';
    const broken = join(tempDir('mockvideo-bundle-'), 'broken.json');
    writeFileSync(broken, JSON.stringify(bundle));
    const run = await runCli(['replay', broken, '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      new RegExp(
        `^\\[mockvideo\\] Failed to load the bundle ${broken.replace(/[.]/g, '\\.')} at exchanges\\[1\\]\\.answer\\.status: [^\\n]+$`,
      ),
    );
    const flag = await runCli(['replay', file, '--fallback-scenario', 'default', '--port', '0']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^\[mockvideo\] --fallback-scenario takes a recording folder; .* is a bundle/);
  });
});
