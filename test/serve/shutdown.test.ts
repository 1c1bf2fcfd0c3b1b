import { request } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(removeTempDirs);

describe('shutdown', () => {
  it('SIGTERM lets in-flight requests finish, then exits 0', async () => {
    const server = await startCli(['serve', '--port', '0', '--no-watch', '--fault', 'meta/setting=delay:1500']);
    const connected: Array<Promise<unknown>> = [];
    const inFlight = Array.from(
      { length: 20 },
      () =>
        new Promise<number | undefined>((resolve, reject) => {
          const req = request(`${server.url}${clientPath('meta/setting')}`, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          });
          connected.push(new Promise((ok) => req.on('socket', (socket) => socket.once('connect', ok))));
          req.on('error', reject).end();
        }),
    );
    // In flight means the server has them: all connected, and time for the server to read them.
    await Promise.all(connected);
    await new Promise((r) => setTimeout(r, 400));
    const exited = server.stop('SIGTERM');
    expect(await Promise.all(inFlight)).toEqual(Array(20).fill(200));
    expect(await exited).toBe(0);
  });

  it('a second SIGINT exits at once, without waiting for a request that hangs', async () => {
    const server = await startCli(['serve', '--port', '0', '--no-watch', '--fault', 'meta/setting=hang']);
    const hanging = fetch(`${server.url}${clientPath('meta/setting')}`).catch(() => 'closed');
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    server.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 100));
    expect(await server.stop('SIGINT')).toBe(0);
    // The grace period for in-flight requests is 2 s; the second signal must not wait for it.
    expect(Date.now() - started).toBeLessThan(1800);
    expect(await hanging).toBe('closed');
  });

  it('record: a second SIGINT exits at once while an exchange waits on the upstream, and says it was not recorded', async () => {
    // An upstream that takes connections and never answers.
    const sockets: Socket[] = [];
    const upstream = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-shutdown-'));
    try {
      const port = (upstream.address() as { port: number }).port;
      const server = await startCli([
        'record',
        '--upstream',
        `http://127.0.0.1:${port}`,
        '--out',
        dir,
        '--port',
        '0',
        '--upstream-timeout',
        '30',
      ]);
      const waiting = fetch(`${server.url}${clientPath('meta/cp')}`).catch(() => 'closed');
      await new Promise((r) => setTimeout(r, 300));
      server.child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      expect(await server.stop('SIGINT')).toBe(0);
      // Without the second signal the recorder would wait for the upstream (30 s) and the grace period.
      expect(Date.now() - started).toBeLessThan(1500);
      expect(server.stderr()).toContain('Stopped at once: exchanges still in flight were not recorded');
      expect(await waiting).toBe('closed');
    } finally {
      for (const socket of sockets) socket.destroy();
      upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['serve', () => ['serve', '--port', '0', '--no-watch']],
    // The recorder's upstream is never called here.
    ['record', () => ['record', '--upstream', 'http://127.0.0.1:9', '--out', tempDir(), '--port', '0']],
  ])(
    '%s: an open dashboard event stream is ended cleanly at SIGINT, not cut off after the grace period',
    async (_command, args) => {
      const server = await startCli(args());
      // How the stream finished: 'end' when the server ended it, 'aborted' when the socket was cut.
      const finished = new Promise<string>((resolve) => {
        request(`${server.url}/__mockvideo/events`, (res) => {
          res.once('data', () => server.child.kill('SIGINT'));
          res.on('data', () => undefined);
          res.on('end', () => resolve('end'));
          res.on('aborted', () => resolve('aborted'));
          res.on('error', () => resolve('aborted'));
        }).end();
      });
      expect(await finished).toBe('end');
      expect(await server.stop('SIGINT')).toBe(0);
    },
  );
});
