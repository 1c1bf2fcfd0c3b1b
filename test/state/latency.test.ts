import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { BIN, startCli, type CliProcess } from '../support/cli.js';
import { recordSession, recordingFiles, tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();
let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/**
 * Milliseconds until the whole answer of `path` arrived: the least of 3 askings (a loaded machine
 * only ever adds time), after one unmeasured (a fresh server loads what it needs on its first answers).
 */
async function timed(path: string): Promise<{ ms: number; status: number }> {
  await (await fetch(`${server!.url}${path}`)).arrayBuffer();
  let ms = Infinity;
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await fetch(`${server!.url}${path}`);
    await response.arrayBuffer();
    ms = Math.min(ms, performance.now() - started);
    status = response.status;
  }
  return { ms, status };
}

/**
 * −20% (−15 ms) to +20% (+60 ms) of `ms`: a check that the delay is the recorded one (or its half),
 * not a speed test; a loaded machine only ever answers later, so the upper side has more room.
 */
const near = (actual: number, ms: number) =>
  expect(actual, `${actual.toFixed(0)} ms for a recorded ${ms} ms`).toSatisfy(
    (a: number) => a >= ms * 0.8 - 15 && a <= ms * 1.2 + 60,
  );

describe('recorded latency', () => {
  it('record stores the time to headers and to the last byte; replay --latency recorded answers that late, a factor scales it, none at once', async () => {
    upstream.switches.delayMs = 250;
    const { dir } = await recordSession(upstream.url, [clientPath('meta/cp'), clientPath('ad_config')]);
    upstream.switches.delayMs = 0;
    const latencies = recordingFiles(dir).map(
      (file) => JSON.parse(file.text).response.latency as { headersMs: number; lastByteMs: number },
    );
    expect(latencies).toHaveLength(2);
    for (const latency of latencies) {
      expect(latency.headersMs).toBeGreaterThanOrEqual(245);
      expect(latency.lastByteMs).toBeGreaterThanOrEqual(latency.headersMs);
    }
    const recorded = latencies.map((l) => l.lastByteMs);

    server = await startCli(['replay', dir, '--port', '0', '--latency', 'recorded']);
    for (const [i, op] of (['meta/cp', 'ad_config'] as const).entries()) {
      const answer = await timed(clientPath(op));
      expect(answer.status).toBe(200);
      near(answer.ms, recorded[i]!);
    }
    await server.stop();

    server = await startCli(['replay', dir, '--port', '0', '--latency', '0.5']);
    near((await timed(clientPath('meta/cp'))).ms, recorded[0]! * 0.5);
    await server.stop();

    server = await startCli(['replay', dir, '--port', '0', '--latency', 'none']);
    expect((await timed(clientPath('meta/cp'))).ms).toBeLessThan(recorded[0]! * 0.5);
  });

  it('HAR import reads HAR timings; replay answers after them', async () => {
    const dir = tempDir();
    const har = join(dir, 'session.har');
    const body = JSON.stringify({ data: {}, msg: 'OK', result: 1 });
    const entry = {
      startedDateTime: '2026-01-31T12:00:00.000Z',
      time: 300,
      request: {
        method: 'GET',
        url: `https://api.example.com${clientPath('ad_config')}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: body.length, mimeType: 'application/json', text: body },
        redirectURL: '',
        headersSize: -1,
        bodySize: body.length,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, send: 1, wait: 219, receive: 80 },
    };
    writeFileSync(
      har,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } }),
    );
    const out = join(dir, 'imported');
    const imported = spawnSync(process.execPath, [BIN, 'import', har, '--out', out], { encoding: 'utf8' });
    expect(imported.status, imported.stderr).toBe(0);
    const [file] = recordingFiles(out);
    expect(JSON.parse(file!.text).response.latency).toEqual({ headersMs: 220, lastByteMs: 300 });
    server = await startCli(['replay', out, '--port', '0', '--latency', 'recorded']);
    near((await timed(clientPath('ad_config'))).ms, 300);
  });

  it('a scenario stub can carry a latency; serve --latency none skips it', async () => {
    const dir = tempDir('mockvideo-scenarios-');
    writeFileSync(
      join(dir, 'slow-ads.json'),
      JSON.stringify({
        description: 'ad_config as slow as recorded',
        extends: 'default',
        operations: { ad_config: { data: {}, latency: { headersMs: 150, lastByteMs: 200 } } },
      }),
    );
    server = await startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--scenario', 'slow-ads']);
    near((await timed(clientPath('ad_config'))).ms, 200);
    await server.stop();
    server = await startCli([
      'serve',
      '--port',
      '0',
      '--scenarios-dir',
      dir,
      '--scenario',
      'slow-ads',
      '--latency',
      'none',
    ]);
    expect((await timed(clientPath('ad_config'))).ms).toBeLessThan(100);
  });

  it('refuses a bad --latency with one line naming the flag', async () => {
    await expect(startCli(['replay', tempDir(), '--port', '0', '--latency', 'slow'])).rejects.toThrow(
      /--latency slow: expected "recorded", "none" or a factor/,
    );
  });
});
