// Cold start, a step of `npm run bench` (issue 40, item 8): how long a server takes from the spawn of
// its process to its first answer, as a device (or a CI job) waits for it. Each round spawns every
// server once, in turn (so a drift of the machine's speed touches all alike), on a port chosen
// before the spawn, and asks it for `path` every 2 ms until it answers 200; the median of the
// rounds is reported, with each server's ratio to the reference's.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (the kernel's pick, released for the server to take). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** True when `url` answers 200 now. */
function answers(url) {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      })
      .on('error', () => resolve(false));
  });
}

/** Milliseconds from the spawn of `command args` (`PORT` in them is the port) to its first 200 to `path`; the process is then killed. */
async function coldStart({ command, args, path, env }, timeoutMs = 30_000) {
  const port = await freePort();
  const t0 = process.hrtime.bigint();
  const child = spawn(
    command,
    args.map((arg) => arg.replaceAll('PORT', String(port))),
    {
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1', BENCH_PORT: String(port), ...env },
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const until = Date.now() + timeoutMs;
    while (!(await answers(`http://127.0.0.1:${port}${path}`))) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`${args.join(' ')} did not answer ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return Number(process.hrtime.bigint() - t0) / 1e6;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * The cold starts of `servers` (name → `{ command, args, path }`), `rounds` rounds interleaved:
 * `{ name: { medianMs, minMs, maxMs } }`.
 */
export async function measureColdStarts(servers, rounds) {
  const runs = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++)
    for (const [name, server] of Object.entries(servers)) runs[name].push(await coldStart(server));
  return Object.fromEntries(
    Object.entries(runs).map(([name, ms]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      const median =
        sorted.length % 2
          ? sorted[sorted.length >> 1]
          : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
      return [name, { medianMs: Math.round(median), minMs: Math.round(sorted[0]), maxMs: Math.round(sorted.at(-1)) }];
    }),
  );
}
