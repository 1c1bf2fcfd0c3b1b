// Issue 39, L4 (serve): slow readers cannot multiply a body. 100 clients that never read a 7.6 MB
// answer hold one shared buffer, not 100 copies. Loopback only, bounded.
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(removeTempDirs);

/** The resident set of process `pid`, in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('slow readers (issue 39, L4)', () => {
  it('100 clients that never read a 7.6 MB stub answer cost serve well under one copy each', async () => {
    const dir = tempDir('mockvideo-big-');
    writeFileSync(
      join(dir, 'big.json'),
      JSON.stringify({ extends: 'default', operations: { ad_config: { data: { blob: 'x'.repeat(7_600_000) } } } }),
    );
    const cli = await startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--scenario', 'big', '--no-watch']);
    const sockets: Socket[] = [];
    try {
      const { hostname, port } = new URL(cli.url);
      // One reader first, so the answer is made (and its one buffer kept) before the others come.
      expect((await (await fetch(`${cli.url}/api/g1/ad_config`)).text()).length).toBeGreaterThan(7_600_000);
      const before = rssMb(cli.child.pid!);
      for (let i = 0; i < 100; i++) {
        const socket = connect(Number(port), hostname);
        socket.pause();
        socket.write(`GET /api/g1/ad_config?_sdevid=${i} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
        sockets.push(socket);
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const held = rssMb(cli.child.pid!) - before;
      console.log(
        `[slow-readers] serve RSS ${before.toFixed(0)} MB before, +${held.toFixed(0)} MB with 100 readers of 7.6 MB held`,
      );
      // 100 copies would be +760 MB (1.6 GB was seen); one shared buffer leaves the journal's cut copies and sockets.
      expect(held).toBeLessThan(250);
      expect((await fetch(`${cli.url}/__mockvideo/health`)).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await cli.stop();
    }
  }, 60_000);
});
