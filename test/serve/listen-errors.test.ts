import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

// Issue 20, item 4: `serve` on a port in use printed `Error: listen EADDRINUSE … at
// Server.setupListenHandle` and exited 1; `record` did the same and left an empty --out folder.
let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

const oneLine = (stderr: string) => {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
};

describe('listen errors are one line, exit 2, and leave nothing behind', () => {
  it('serve on a port in use names the address and suggests another port or --port 0', async () => {
    const { code, stderr } = await runCli(['serve', '--port', String(port), '--no-watch']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `Cannot listen on 127.0.0.1:${port}: the port is in use by another process. Stop that process, or use another port (--port ${port + 1}) or --port 0 for a free one.`,
    );
    oneLine(stderr);
  });

  it('record on a port in use removes the --out folders it made', async () => {
    const base = mkdtempSync(join(tmpdir(), 'mockvideo-listen-'));
    const out = join(base, 'new', 'session');
    const { code, stderr } = await runCli([
      'record',
      '--upstream',
      'http://127.0.0.1:9',
      '--out',
      out,
      '--port',
      String(port),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`Cannot listen on 127.0.0.1:${port}: the port is in use`);
    oneLine(stderr);
    expect(existsSync(join(base, 'new'))).toBe(false);
  });

  it('serve on an address this machine does not have suggests --host', async () => {
    // 192.0.2.0/24 is TEST-NET-1: never an address of this machine.
    const { code, stderr } = await runCli(['serve', '--port', '0', '--host', '192.0.2.1', '--no-watch']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /Cannot listen on 192\.0\.2\.1:0: 192\.0\.2\.1 is not an address of this machine\. Use --host 127\.0\.0\.1/,
    );
    oneLine(stderr);
  });
});
