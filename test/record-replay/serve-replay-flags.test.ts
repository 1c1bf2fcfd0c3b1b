// `serve --replay DIR` takes every replay flag or refuses, by name, the ones it cannot honour
// (issue 32.3: they were silently ignored); `replay` takes the flags of `serve` it shares.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordSession, removeTempDirs } from '../support/recordings.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

let upstream: Upstream;
let dir: string;

beforeAll(async () => {
  upstream = await startUpstream();
  ({ dir } = await recordSession(upstream.url, [clientPath('meta/cp'), clientPath('meta/setting')]));
}, 30_000);
afterAll(async () => {
  await upstream?.close();
  removeTempDirs();
});

/** `mockvideo serve --replay <the recorded folder> --port 0 --no-watch` with `flags`. */
const serveReplay = (flags: string[], options?: Parameters<typeof startCli>[1]) =>
  startCli(['serve', '--replay', dir, '--port', '0', '--no-watch', ...flags], options);

describe('serve --replay DIR', () => {
  it('applies --fault meta/cp=status:500 (and leaves the other operations alone)', async () => {
    const server = await serveReplay(['--fault', 'meta/cp=status:500']);
    try {
      const faulted = await fetch(`${server.url}${clientPath('meta/cp')}`);
      expect(faulted.status).toBe(500);
      expect(faulted.headers.get('x-mockvideo-fault')).toBe('status');
      const clean = await fetch(`${server.url}${clientPath('meta/setting')}`);
      expect([clean.status, clean.headers.get('x-mockvideo-match')]).toEqual([200, 'exact']);
      expect(server.stdout()).toContain('faults: meta/cp=status:500');
    } finally {
      await server.stop('SIGINT');
    }
  });

  it('takes --strict-requests, --journal-size and --admin-token', async () => {
    const server = await serveReplay([
      '--strict-requests',
      '--journal-size',
      '1',
      '--admin-token',
      'made-up-admin-token',
    ]);
    try {
      expect((await fetch(`${server.url}/api/g1/meta/cp?x=1`)).status).toBe(400);
      await fetch(`${server.url}${clientPath('meta/cp')}`);
      const { requests } = (await (await fetch(`${server.url}/__mockvideo/requests`)).json()) as {
        requests: unknown[];
      };
      expect(requests).toHaveLength(1);
    } finally {
      await server.stop('SIGINT');
    }
  });

  it('takes --analytics-path and --https --https-port (as replay does): records are taken there, HTTPS is served', async () => {
    const server = await serveReplay(['--analytics-path', '/log', '--https', '--https-port', '0'], {
      env: { MOCKVIDEO_HOME: mkdtempSync(join(tmpdir(), 'mockvideo-home-')) },
    });
    try {
      const posted = await fetch(`${server.url}/log`, { method: 'POST', body: '{"event":"play"}' });
      expect([posted.status, ((await posted.json()) as { accepted: number }).accepted]).toEqual([200, 1]);
      expect(server.stdout()).toMatch(/this machine:\s+https:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await server.stop('SIGINT');
    }
  });

  it('refuses --scenario, which replay cannot honour, by name, in one line and exit code 2', async () => {
    const { code, stderr } = await runCli(['serve', '--replay', dir, '--port', '0', '--scenario', 'gallery']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/serve --replay does not take --scenario/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('replay DIR', () => {
  it('applies --fault and --strict-requests as serve does', async () => {
    const server = await startCli([
      'replay',
      dir,
      '--port',
      '0',
      '--no-watch',
      '--fault',
      'meta/setting=envelope:7',
      '--strict-requests',
    ]);
    try {
      const faulted = await fetch(`${server.url}${clientPath('meta/setting')}`);
      expect([faulted.status, faulted.headers.get('x-mockvideo-fault')]).toEqual([200, 'envelope']);
      expect(JSON.parse(await faulted.text())).toMatchObject({ result: 7 });
      expect((await fetch(`${server.url}/api/g1/meta/cp?x=1`)).status).toBe(400);
    } finally {
      await server.stop('SIGINT');
    }
  });
});
