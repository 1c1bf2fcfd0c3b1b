// Protections of issue #9 around recording that no other test caught when they were removed one at
// a time (each test here failed with its protection taken out): the write check of an existing
// folder that cannot be written, the folder lock taken by `replay --record-missing` and `import` too,
// and the recorder forwarding nothing but `/api/g1/...` to `--upstream`, whatever the Host header or
// an absolute-form target names.
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, canMountTmpfs, runCli, startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

/**
 * How this machine can offer a folder that exists but cannot be written: a read-only tmpfs mounted
 * for the CLI process only (a user and mount namespace, root or not), else, for a user other than
 * root, a folder without write permission; root ignores permissions, so without namespaces: none.
 */
const readOnlyWay: 'mount' | 'chmod' | undefined = canMountTmpfs()
  ? 'mount'
  : process.getuid?.() !== 0
    ? 'chmod'
    : undefined;

/** Runs `mockvideo <args>` with `dir` read-only (see {@link readOnlyWay}); resolves with its exit code and stderr. */
function runWithReadOnlyDir(dir: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  if (readOnlyWay === 'chmod') {
    chmodSync(dir, 0o555);
    return runCli(args).finally(() => chmodSync(dir, 0o755));
  }
  const script = 'mount -t tmpfs -o ro,size=64k mockvideo-ro "$1" && shift && exec "$@"';
  const child = spawn(
    'unshare',
    ['--user', '--map-root-user', '--mount', '/bin/sh', '-c', script, 'sh', dir, process.execPath, BIN, ...args],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a recording folder that exists but cannot be written', () => {
  it.skipIf(!readOnlyWay).each([
    ['record', (dir: string) => ['record', '--upstream', upstream.url, '--out', dir, '--port', '0']],
    [
      'replay --record-missing',
      (dir: string) => ['replay', dir, '--record-missing', '--upstream', upstream.url, '--port', '0'],
    ],
  ])('%s fails at start with exit 2, naming the folder and the cause', async (_what, args) => {
    const dir = tempDir();
    const { code, stderr } = await runWithReadOnlyDir(dir, args(dir));
    expect(stderr).toMatch(
      new RegExp(`Cannot record into ${dir}: (EROFS|EACCES|EPERM)\\. Choose a folder you can write to with --out\\.`),
    );
    expect(code).toBe(2);
  });
});

describe('a folder a recorder holds', () => {
  let out: string;
  let recorder: CliProcess;
  beforeAll(async () => {
    out = tempDir();
    recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
  });
  afterAll(async () => {
    await recorder.stop('SIGINT');
  });

  it('is refused to replay --record-missing (exit 2), which would write into it too', async () => {
    const { code, stderr } = await runCli([
      'replay',
      out,
      '--record-missing',
      '--upstream',
      upstream.url,
      '--port',
      '0',
    ]);
    expect(stderr).toMatch(/is being recorded into by another mockvideo process/);
    expect(code).toBe(2);
  });

  it('is refused to import (exit 2)', async () => {
    const har = join(tempDir(), 'empty.har');
    writeFileSync(
      har,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [] } }),
    );
    const { code, stderr } = await runCli(['import', har, '--out', out]);
    expect(stderr).toMatch(/is being recorded into by another mockvideo process/);
    expect(code).toBe(2);
  });
});

describe('the recorder is not an open proxy', () => {
  // Another service on this machine that a hostile request would like to reach through the recorder.
  let target: Server;
  let targetHost: string;
  const reached: string[] = [];
  let recorder: CliProcess;
  beforeAll(async () => {
    target = createServer((req, res) => {
      reached.push(`${req.method} ${req.url}`);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"data":"from the other service","msg":"OK","result":1}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    recorder = await startCli(['record', '--upstream', upstream.url, '--out', tempDir(), '--port', '0']);
  });
  afterAll(async () => {
    await recorder.stop('SIGINT');
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  /** Sends exactly `head` (request line and headers) to the recorder; resolves with the raw answer. */
  function send(head: string): Promise<string> {
    const { port } = new URL(recorder.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head}Connection: close\r\n\r\n`));
      let text = '';
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  it.each(['/internal/admin', '/api/g1x/meta/cp', '/api/g1', '/api', '/..%2Fapi/g1/meta/cp'])(
    'forwards nothing outside /api/g1/: %s gets a 404 from mockvideo',
    async (path) => {
      const before = upstream.received.length;
      const answer = await send(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 404/);
      expect(answer).not.toContain('no such operation'); // the fake upstream's own 404
      expect(upstream.received.slice(before)).toEqual([]);
    },
  );

  it("forwards nothing for /: it gets mockvideo's own index (the operations and the dashboard)", async () => {
    const before = upstream.received.length;
    const answer = await send('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"GET /api/g1/meta/cp"');
    expect(upstream.received.slice(before)).toEqual([]);
  });

  it('sends a request whose Host header names another service to --upstream only', async () => {
    const before = upstream.received.length;
    const path = clientPath('meta/cp');
    const answer = await send(`GET ${path} HTTP/1.1\r\nHost: ${targetHost}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).not.toContain('from the other service');
    expect(upstream.received.slice(before)).toEqual([path]);
    expect(reached).toEqual([]);
  });

  it('sends an absolute-form target naming another service to --upstream only', async () => {
    const before = upstream.received.length;
    const path = clientPath('meta/setting');
    const answer = await send(`GET http://${targetHost}${path} HTTP/1.1\r\nHost: ${targetHost}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).not.toContain('from the other service');
    expect(upstream.received.slice(before)).toEqual([path]);
    expect(reached).toEqual([]);
  });
});
