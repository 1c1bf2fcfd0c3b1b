// The recorder never makes up an answer for the upstream (issue 34.4): with a write backlog of
// large recordings, 6 clients × 300 exchanges of 1 MiB all get the upstream's 200, and every
// exchange is recorded. Bounded: 300 exchanges on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { toServiceJson } from '../../src/contract/index.js';
import { startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';

const MIB = 1024 * 1024;
let upstream: Server | undefined;
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  removeTempDirs();
});

it("6 clients × 300 exchanges of 1 MiB through record: 300 × the upstream's 200, 300 recordings, none blamed on the upstream", async () => {
  // One 1 MiB answer (the envelope around a long string), the same for every request.
  const body = Buffer.from(toServiceJson({ data: { filler: 'x'.repeat(MIB - 40) }, msg: 'OK', result: 1 }), 'utf8');
  upstream = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) })
      .end(body),
  );
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  const dir = tempDir();
  const recorder = await startCli([
    'record',
    '--upstream',
    `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    '--out',
    dir,
    '--port',
    '0',
  ]);
  const statuses: number[] = [];
  try {
    const base = clientPath('meta/cp');
    await Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; i < 50; i++) {
          const response = await fetch(`${recorder.url}${base}&n=${client}-${i}`);
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      }),
    );
  } finally {
    await recorder.stop('SIGINT');
  }
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(statuses).toHaveLength(300);
  expect(recordingFiles(dir)).toHaveLength(300);
  expect(recorder.stdout()).not.toMatch(/ 503 /);
}, 120_000);
