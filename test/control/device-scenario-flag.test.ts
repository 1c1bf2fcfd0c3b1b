// `--device-scenario SDEVID=NAME` (issue 41, item 1) through the real CLI: two devices get two
// scenarios from the start, with no URL prefix, in `serve` and for the misses of `replay
// --fallback-scenario`; a bad value or an unknown scenario is one line naming the flag.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperationName } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { recordSession, removeTempDirs } from '../support/recordings.js';

/** Made-up `_sdevid`s (never real identifiers). */
const A = 'a1'.repeat(32);
const B = '5e'.repeat(32);
const C = 'c3'.repeat(32);

const pathOf = (sdevid: string, operation: OperationName) =>
  clientPath(operation).replace(/_sdevid=[^&]*/, `_sdevid=${sdevid}`);

/** What answered `operation` for `sdevid`: the scenario (or `-`) and the match kind (or `-`). */
async function answered(url: string, sdevid: string, operation: OperationName = 'meta/cp') {
  const response = await fetch(`${url}${pathOf(sdevid, operation)}`);
  await response.arrayBuffer();
  return `${response.headers.get('x-mockvideo-scenario') ?? '-'} ${response.headers.get('x-mockvideo-match') ?? '-'}`;
}

afterAll(() => removeTempDirs());

describe('serve --device-scenario', () => {
  let server: CliProcess;
  beforeAll(async () => {
    server = await startCli([
      'serve',
      '--port',
      '0',
      '--no-watch',
      '--device-scenario',
      `${A}=gallery`,
      '--device-scenario',
      `${B}=non-gallery`,
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives each device its scenario from its first request, the others the server’s', async () => {
    expect(await answered(server.url, A)).toBe('gallery -');
    expect(await answered(server.url, B)).toBe('non-gallery -');
    expect(await answered(server.url, C)).toBe('default -');
  });

  it('says so on its start lines and in GET /devices', async () => {
    await vi.waitFor(() =>
      expect(server.stdout()).toContain(
        `  device scenarios: ${A}=gallery, ${B}=non-gallery (listed at ${server.url}/__mockvideo/devices)\n`,
      ),
    );
    const { devices } = (await (await fetch(`${server.url}/__mockvideo/devices`)).json()) as {
      devices: Array<{ sdevid: string; scenario: string; steered: boolean }>;
    };
    expect(devices.map((d) => [d.sdevid, d.scenario, d.steered])).toEqual([
      [A, 'gallery', true],
      [B, 'non-gallery', true],
      [C, 'default', false],
    ]);
  });

  it('can be given back to the server’s scenario while it runs', async () => {
    await fetch(`${server.url}/__mockvideo/devices/${B}/scenario`, { method: 'DELETE' });
    expect(await answered(server.url, B)).toBe('default -');
  });
});

describe('replay --fallback-scenario --device-scenario', () => {
  let upstream: CliProcess;
  let replay: CliProcess;
  beforeAll(async () => {
    upstream = await startCli(['serve', '--port', '0', '--no-watch']);
    const session = await recordSession(upstream.url, [pathOf(A, 'meta/cp')]);
    replay = await startCli([
      'replay',
      session.dir,
      '--port',
      '0',
      '--no-watch',
      '--fallback-scenario',
      'default',
      '--device-scenario',
      `${A}=settings-twice`,
    ]);
  }, 60_000);
  afterAll(async () => {
    await replay?.stop();
    await upstream?.stop();
  });

  it("answers a device's misses from its own scenario, the others' from the fallback; recordings stay first", async () => {
    // The recording answers (its own x-mockvideo-scenario is the one it recorded from the upstream).
    expect((await answered(replay.url, A, 'meta/cp')).split(' ')[1]).toBe('exact');
    expect(await answered(replay.url, A, 'meta/setting')).toBe('settings-twice fallback');
    expect(await answered(replay.url, B, 'meta/setting')).toBe('default fallback');
  });
});

describe('--device-scenario refused, one line naming the flag', () => {
  it.each([
    [['serve', '--device-scenario', 'gallery'], /--device-scenario gallery: expected SDEVID=NAME/],
    [['serve', '--device-scenario', `${A}=`], /--device-scenario a1a1.*=: expected SDEVID=NAME/],
    [['serve', '--device-scenario', `${A}=galery`], /Unknown scenario "galery"\..*Did you mean "gallery"\?/],
  ])('mockvideo %j', async (args, message) => {
    const { code, stderr } = await runCli([...args, '--port', '0']);
    expect(code).toBe(2);
    // One line of what is wrong (a usage error is followed by where --help is), no stack trace.
    expect(stderr.split('\n')[0]).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('in replay without --fallback-scenario: no scenario answers there', async () => {
    const upstream = await startCli(['serve', '--port', '0', '--no-watch']);
    const session = await recordSession(upstream.url, [pathOf(A, 'meta/cp')]);
    await upstream.stop();
    const { code, stderr } = await runCli(['replay', session.dir, '--port', '0', '--device-scenario', `${A}=gallery`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /--device-scenario a1a1.*=gallery: no scenario answers this replay server\. .*--fallback-scenario NAME/,
    );
  }, 30_000);
});
