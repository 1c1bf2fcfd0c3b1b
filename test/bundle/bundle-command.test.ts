// Issue 41, item 2, through the real CLI: `mockvideo bundle --url URL [--device SDEVID]
// [--start-up ID|last] --out FILE` writes a start-up's bundle (atomically) that `replay FILE`
// replays; bad input is one line naming the flag, exit code 2.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/bundle/bundle-schema.js';
import {
  DEVICE_SECRETS,
  FAULTY_START_UP,
  OTHER_DEVICE,
  comparable,
  faultyStartUp,
  journaled,
  leaks,
  planStartUpFaults,
  type Outcome,
} from '../support/bundles.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';
import { deadUrl } from '../support/upstream.js';

let serve: CliProcess;
let outcomes: Outcome[];
let dir: string;

beforeAll(async () => {
  serve = await startCli(['serve', '--port', '0', '--no-watch', '--fuzz', '7']);
  await planStartUpFaults(serve.url);
  outcomes = await faultyStartUp(serve.url);
  await journaled(serve.url, FAULTY_START_UP.length);
  dir = tempDir('mockvideo-bundle-cli-');
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  removeTempDirs();
});

describe('mockvideo bundle', () => {
  it('writes the last start-up of a device, whole and atomically, and says so in one line', async () => {
    const out = join(dir, 'bug-123.json');
    const run = await runCli(['bundle', '--url', serve.url, '--device', DEVICE_SECRETS._sdevid, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const bundle = parseBundle(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.stdout).toMatch(
      new RegExp(
        `^wrote ${out.replace(/[.]/g, '\\.')}: start-up ${bundle.verdict.id} at .*, 6 requests, verify fails \\(start-up-calls-each-operation-once\\)\\. Replay it: mockvideo replay .*\\n$`,
      ),
    );
    expect(readdirSync(dir)).toEqual(['bug-123.json']);
    expect(leaks(readFileSync(out, 'utf8'))).toEqual([]);
    // The same as the admin call gives, byte for byte.
    const direct = await (await fetch(`${serve.url}/__mockvideo/start-ups/${bundle.verdict.id}/bundle`)).text();
    expect(JSON.parse(direct)).toEqual({
      ...bundle,
      createdAt: JSON.parse(direct).createdAt,
      clock: JSON.parse(direct).clock,
    });
  });

  it('writes a start-up by id that mockvideo replay FILE answers as the first device got it', async () => {
    const { startUps } = (await (await fetch(`${serve.url}/__mockvideo/start-ups`)).json()) as {
      startUps: Array<{ id: number }>;
    };
    const out = join(dir, 'by-id.json');
    expect(
      (await runCli(['bundle', '--url', serve.url, '--start-up', String(startUps[0]!.id), '--out', out])).code,
    ).toBe(0);
    const replay = await startCli(['replay', out, '--port', '0']);
    try {
      expect((await faultyStartUp(replay.url, OTHER_DEVICE)).map(comparable)).toEqual(outcomes.map(comparable));
    } finally {
      await replay.stop();
    }
  });

  it.each([
    [['--start-up', '99999'], /^\[mockvideo\] --start-up 99999: no such start-up in the journal; it holds \d+ /],
    [
      ['--device', 'f'.repeat(64)],
      /^\[mockvideo\] --device f{64}: no start-up of this device in the journal; its devices are /,
    ],
  ])('refuses %j in one line naming the flag, exit code 2', async (flags, said) => {
    const out = join(dir, 'never.json');
    const run = await runCli(['bundle', '--url', serve.url, '--out', out, ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(said);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an --out in a folder that does not exist, and leaves nothing behind', async () => {
    const out = join(dir, 'no-such-folder', 'x.json');
    const run = await runCli(['bundle', '--url', serve.url, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `[mockvideo] --out ${out}: cannot write it (its folder does not exist). Give a file in a folder you can write.\n`,
    );
    expect(readdirSync(dir)).not.toContain('no-such-folder');
  });

  it('refuses a --start-up that is neither an id nor last, as any flag of the wrong kind', async () => {
    const run = await runCli(['bundle', '--url', serve.url, '--start-up', 'first', '--out', join(dir, 'never.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      `[mockvideo] --start-up takes a start-up's id (a number, as GET /__mockvideo/start-ups lists them) or "last", got "first".`,
    );
  });

  it.each([
    [
      'nothing answers there',
      async () => deadUrl(),
      /^\[mockvideo\] --url http:\/\/127\.0\.0\.1:\d+: cannot reach mockvideo there \(ECONNREFUSED\)\. Is "mockvideo serve" running at that address\?$/,
    ],
    [
      'it is not an address',
      async () => '127.0.0.1:8787',
      /^\[mockvideo\] --url 127\.0\.0\.1:8787: not an http:\/\/ or https:\/\/ address\. Give the one serve printed, e\.g\. http:\/\/127\.0\.0\.1:8787\.$/,
    ],
  ])('names --url when %s', async (_, url, said) => {
    const run = await runCli(['bundle', '--url', await url(), '--out', join(dir, 'never.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(said);
  });

  it('sends MOCKVIDEO_ADMIN_TOKEN as the bearer token, and names --admin-token when refused', async () => {
    // A proxy in front of serve that notes each Authorization and refuses a wrong one, as a server
    // whose admin API needs the token would.
    const seen: Array<string | undefined> = [];
    const proxy = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer made-up-admin-token') {
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"forbidden"}');
        return;
      }
      const { port } = new URL(serve.url);
      req.pipe(
        request({ port, path: req.url, headers: { host: `127.0.0.1:${port}` } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }),
      );
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const out = join(dir, 'with-token.json');
      const run = await runCli(['bundle', '--url', url, '--out', out], {
        env: { MOCKVIDEO_ADMIN_TOKEN: 'made-up-admin-token' },
      });
      expect(run.stderr).toBe('');
      expect(seen).toEqual(['Bearer made-up-admin-token', 'Bearer made-up-admin-token']);
      expect(parseBundle(JSON.parse(readFileSync(out, 'utf8')), out).exchanges).toHaveLength(6);
      const refused = await runCli([
        'bundle',
        '--url',
        url,
        '--admin-token',
        'wrong',
        '--out',
        join(dir, 'never.json'),
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `[mockvideo] --url ${url}: GET /__mockvideo/start-ups answered 403 to the --admin-token given. Pass the server's token with --admin-token TOKEN or MOCKVIDEO_ADMIN_TOKEN.\n`,
      );
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
