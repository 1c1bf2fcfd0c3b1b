// The recorder never makes up an answer for the upstream (issue 34.4): with a write backlog of
// large recordings, 6 clients × 300 exchanges of 1 MiB all get the upstream's 200, and every
// exchange is recorded, the recorder at most 300 MiB RSS (issue 39: 606–649 MB; 501–524 MiB before
// the in-flight budget counted reservations and the journal kept long bodies as bytes; 247–264 MiB
// after); slow readers hold later exchanges back instead of multiplying the bodies held (issue 39
// L4). Bounded: at most 300 exchanges of 1 MiB, 24 of 5 MiB, on 127.0.0.1.
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { createServer, get as httpGet, type IncomingMessage, type Server } from 'node:http';
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
  for (const dir of inRam) rmSync(dir, { recursive: true, force: true });
});

const inRam: string[] = [];
/**
 * A recording folder in RAM (/dev/shm) when it has 1 GiB free, else on the disk: this file writes
 * 435 MiB of recordings, which on the disk held up the tests running beside it (another
 * recorder's health answered in 1.4–5.4 s instead of under 1 s).
 */
function recordingDir(): string {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < 1024 * MIB) return tempDir();
  } catch {
    return tempDir();
  }
  const dir = mkdtempSync('/dev/shm/mockvideo-rec-');
  inRam.push(dir);
  return dir;
}

/** The peak resident memory of process `pid` so far, in MiB (Linux: `VmHWM` of /proc/PID/status). */
function peakRssMiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
const hasProc = existsSync('/proc/self/status');

/** An upstream on 127.0.0.1 answering every request with `body` (JSON); counts the requests. */
async function startUpstream(body: Buffer): Promise<{ url: string; asked: () => number }> {
  let asked = 0;
  upstream = createServer((_req, res) => {
    asked++;
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) })
      .end(body);
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, asked: () => asked };
}

/** Waits until `count()` has stayed the same for 1.5 s (at most 15 s in all), and returns it. */
async function settled(count: () => number): Promise<number> {
  const end = Date.now() + 15_000;
  let seen = count();
  let since = Date.now();
  while (Date.now() - since < 1500 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (count() !== seen) [seen, since] = [count(), Date.now()];
  }
  return seen;
}

/**
 * `record` with `--upstream-timeout` `seconds`, in front of a new upstream answering 5 MiB to every
 * request (the previous upstream closed), recording into a folder of its own.
 */
async function fiveMiBRecorder(seconds: number) {
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  const body = bodyOf(5);
  const { url, asked } = await startUpstream(body);
  const dir = recordingDir();
  const args = ['record', '--upstream', url, '--out', dir, '--port', '0', '--upstream-timeout', String(seconds)];
  return { body, asked, dir, recorder: await startCli(args) };
}

/** The envelope around a long string: `mib` MiB of JSON. */
const bodyOf = (mib: number) =>
  Buffer.from(toServiceJson({ data: { filler: 'x'.repeat(mib * MIB - 40) }, msg: 'OK', result: 1 }), 'utf8');

it("6 clients × 300 exchanges of 1 MiB through record: 300 × the upstream's 200, 300 recordings, none blamed on the upstream", async () => {
  // One 1 MiB answer, the same for every request.
  const { url } = await startUpstream(bodyOf(1));
  const dir = recordingDir();
  const recorder = await startCli(['record', '--upstream', url, '--out', dir, '--port', '0']);
  const statuses: number[] = [];
  let peak = 0;
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
    if (hasProc) peak = peakRssMiB(recorder.child.pid!);
  } finally {
    await recorder.stop('SIGINT');
  }
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(statuses).toHaveLength(300);
  expect(recordingFiles(dir)).toHaveLength(300);
  expect(recorder.stdout()).not.toMatch(/ 503 /);
  console.log(`in-flight-budget: record of 6 × 300 × 1 MiB peaked at ${peak.toFixed(0)} MiB RSS`);
  if (hasProc) expect(peak).toBeLessThanOrEqual(300);
}, 120_000);

/** How many clients ask for 5 MiB and do not read it at first. */
const READERS = 24;

it('clients that do not read their answers hold the next exchanges back: the recorder holds no more than its budget of their bodies', async () => {
  // Their time to read (see the next test) longer than this test takes.
  const { body, asked, dir, recorder } = await fiveMiBRecorder(60);
  const readers: IncomingMessage[] = [];
  let forwarded: number | undefined;
  let heldBack = 0;
  let peak = 0;
  try {
    // READERS clients ask for 5 MiB each and read nothing yet: their sockets hold what is sent to them.
    const target = `${recorder.url}${clientPath('meta/cp')}`;
    const answers = Array.from(
      { length: READERS },
      (_, i) =>
        new Promise<IncomingMessage>((resolve, reject) =>
          httpGet(`${target}&n=${i}`, (res) => (res.pause(), readers.push(res), resolve(res))).on('error', reject),
        ),
    );
    // The first requests of an operation reserve an eighth of the 8 MiB budget each, later ones the
    // 5 MiB its answer came to: at most 8 go on, and what their clients have not read holds the rest
    // back. Before, each was forwarded as it came and held (all 24: 282–450 MiB RSS; 40 readers:
    // 551–559 MiB; issue 39: 60 readers of 5 MB, 794 MB).
    forwarded = await settled(asked);
    expect(forwarded).toBeGreaterThan(0);
    expect(forwarded).toBeLessThanOrEqual(8);
    if (hasProc) heldBack = peakRssMiB(recorder.child.pid!);
    // As clients read, the rest go on: each gets the upstream's whole answer.
    const lengths = answers.map(async (answer) => {
      const res = await answer;
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.resume();
      await new Promise((resolve) => res.once('end', resolve));
      return [res.statusCode, length];
    });
    for (const res of readers) res.resume();
    expect(await Promise.all(lengths)).toEqual(Array.from({ length: READERS }, () => [200, body.length]));
    if (hasProc) peak = peakRssMiB(recorder.child.pid!);
  } finally {
    await recorder.stop('SIGINT');
  }
  expect(asked()).toBe(READERS);
  expect(recordingFiles(dir)).toHaveLength(READERS);
  console.log(
    `in-flight-budget: ${READERS} clients not reading 5 MiB, ${forwarded} forwarded: ${heldBack.toFixed(0)} MiB RSS, ${peak.toFixed(0)} MiB once all read`,
  );
  // Now 233–258 MiB while held back (40 readers: 180–252), 284–380 MiB at most while the rest go
  // one by one (each 5 MiB answer leaves its copies while recorded, and V8 collects them late).
  if (hasProc) expect(heldBack).toBeLessThanOrEqual(350);
  if (hasProc) expect(peak).toBeLessThanOrEqual(450);
}, 120_000);

it('clients that read nothing hold later exchanges back for --upstream-timeout at most, not for ever', async () => {
  const { body, asked, recorder } = await fiveMiBRecorder(1);
  const target = `${recorder.url}${clientPath('meta/cp')}`;
  const idle: IncomingMessage[] = [];
  try {
    // Two clients hold 10 MiB unread: more than the 8 MiB budget, so the next 5 MiB must wait.
    for (const n of [1, 2])
      idle.push(
        await new Promise<IncomingMessage>((resolve, reject) =>
          httpGet(`${target}&n=${n}`, (res) => (res.pause(), resolve(res))).on('error', reject),
        ),
      );
    expect(await settled(asked)).toBe(2);
    // A third client that reads gets its whole answer once the idle ones had their second to read.
    const third = await fetch(`${target}&n=3`, { signal: AbortSignal.timeout(20_000) });
    expect([third.status, (await third.arrayBuffer()).byteLength]).toEqual([200, body.length]);
    expect(idle.every((res) => res.isPaused())).toBe(true);
  } finally {
    for (const res of idle) res.destroy();
    await recorder.stop('SIGINT');
  }
  expect(asked()).toBe(3);
}, 60_000);
