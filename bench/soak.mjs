// `npm run soak`: a bounded run of `mockvideo serve` (built, from dist/) at a steady rate, mixing the
// six operations, scenario prefixes, live scenario switches, planned faults and journal reads. It
// samples the server's RSS and open file descriptors and fails (exit 1) when memory grows after the
// warm-up, descriptors leak, or an answer is an error nobody asked for. Not part of `npm test`.
//
// Knobs (environment):
//   SOAK_SECONDS=120        length of the load
//   SOAK_RATE=200           operation requests per second (open loop: sent on schedule, not after answers)
//   SOAK_WARMUP_SECONDS     seconds before memory is taken as the reference (default: a quarter, at most 30)
//   SOAK_SAMPLE_SECONDS=5   seconds between two samples of RSS and descriptors
//   SOAK_RSS_GROWTH=0.2     largest growth of RSS after the warm-up, median of the second half of the
//                           samples against the first (0.2 = 20%)
//   SOAK_FD_SLACK=10        descriptors the server may hold above or below its baseline at the end
//   SOAK_CONNECTIONS=32     client connections
//   SOAK_SERVER_HEAP_MB=0   cap the server's V8 old space (--max-old-space-size) to tell a leak from a
//                           heap V8 lets grow lazily: capped, a bounded server stays flat and a leak
//                           ends in an out-of-memory crash (0: Node's default, as users run it)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { OPERATION_NAMES, clientPath } from './fixtures.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'mockvideo.js');

function env(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}
const SECONDS = env('SOAK_SECONDS', 120);
const RATE = env('SOAK_RATE', 200);
const WARMUP = env('SOAK_WARMUP_SECONDS', Math.min(30, SECONDS / 4));
const SAMPLE = env('SOAK_SAMPLE_SECONDS', 5);
const RSS_GROWTH = env('SOAK_RSS_GROWTH', 0.2);
const FD_SLACK = env('SOAK_FD_SLACK', 10);
const CONNECTIONS = env('SOAK_CONNECTIONS', 32);
const HEAP_MB = env('SOAK_SERVER_HEAP_MB', 0);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Scenarios whose every answer is a 200, or an error that carries `x-mockvideo-fault` (asked for).
// Not `connection-reset`, `slow-network`: resets and multi-second delays are planned below instead.
const SWITCHED = [
  'default',
  'gallery',
  'non-gallery',
  'plugin-upgrade',
  'corrupt-plugin',
  'no-recommendations',
  'i18n-stress',
  'settings-twice',
  'empty-ad-config',
  'flaky',
  'server-error',
];
const PREFIXED = ['gallery', 'i18n-stress', 'flaky'];
// Live faults, one every few seconds, in turn: each for the next `times` requests.
const FAULTS = [
  { kind: 'status', status: 503, times: 20 },
  { operation: 'meta/setting', kind: 'envelope', result: 0, msg: 'busy', times: 10 },
  { kind: 'malformed-json', times: 10 },
  { operation: 'localplay/recomm', kind: 'empty', times: 10 },
  { kind: 'delay', ms: [50, 200], times: 30 },
  { kind: 'reset', times: 3 },
];

/** `mockvideo serve` on 127.0.0.1 port 0; resolves once it printed its URL. */
function startServer() {
  const child = spawn(
    process.execPath,
    [
      ...(HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []),
      BIN,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--quiet',
      '--no-watch',
    ],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mockvideo serve printed no URL within 30 s.\n${out}${err}`)),
      30_000,
    );
    child.once('exit', () => reject(new Error(`mockvideo serve exited before serving.\n${out}${err}`)));
    child.stdout.on('data', () => {
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out.split('\n')[0] ?? '');
      if (!m || !out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, url: m[0], stderr: () => err, exited });
    });
  });
}

/** RSS in MB and open descriptors of a process, from /proc. */
function sample(pid) {
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return { rssMb: rssKb / 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}
const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function main() {
  const server = await startServer();
  const pid = server.child.pid;
  const killServer = () => server.child.kill('SIGKILL');
  process.on('exit', killServer);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  await sleep(500);
  const baseline = sample(pid);
  console.log(
    `soak: ${server.url} (pid ${pid}), ${SECONDS} s at ${RATE} req/s, warm-up ${WARMUP} s, samples every ${SAMPLE} s${HEAP_MB ? `, server heap capped at ${HEAP_MB} MB` : ''}; baseline RSS ${baseline.rssMb.toFixed(1)} MB, ${baseline.fds} fds`,
  );

  const pool = new Pool(server.url, {
    connections: CONNECTIONS,
    pipelining: 1,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const tally = {
    sent: 0,
    ok: 0,
    asked: {},
    unexpected: [],
    resets: 0,
    plannedResets: 0,
    admin: 0,
    adminFailed: [],
    switches: 0,
    faultsPlanned: 0,
    latencies: [],
  };
  const unexpected = (what) => {
    if (tally.unexpected.length < 20) tally.unexpected.push(what);
    else tally.unexpected.push('…');
  };
  const inFlight = new Set();
  const track = (promise) => {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise));
  };

  async function operation(n) {
    const op = OPERATION_NAMES[n % OPERATION_NAMES.length];
    // One in five through a scenario prefix, one in ten choosing its scenario by header.
    const prefix = n % 5 === 0 ? `/scenarios/${PREFIXED[(n / 5) % PREFIXED.length]}` : '';
    const headers = n % 10 === 3 ? { 'x-mockvideo-scenario': 'gallery' } : {};
    const started = performance.now();
    try {
      const {
        statusCode,
        headers: answer,
        body,
      } = await pool.request({ method: 'GET', path: clientPath(op, String(n % 97), prefix), headers });
      await body.arrayBuffer().catch(() => undefined);
      tally.latencies.push(performance.now() - started);
      const fault = answer['x-mockvideo-fault'];
      if (fault) tally.asked[`${fault} ${statusCode}`] = (tally.asked[`${fault} ${statusCode}`] ?? 0) + 1;
      else if (statusCode === 200) tally.ok++;
      else unexpected(`${statusCode} for GET ${prefix}${op} without x-mockvideo-fault`);
    } catch (error) {
      // A planned `reset` closes the connection: the request fails with a socket error.
      if (error.code === 'UND_ERR_SOCKET' || error.code === 'ECONNRESET') tally.resets++;
      else unexpected(`GET ${op}: ${error.code ?? ''} ${error.message}`);
    }
  }

  async function admin(method, path, body) {
    try {
      const { statusCode, body: text } = await pool.request({
        method,
        path: `/__mockvideo${path}`,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await text.json();
      tally.admin++;
      if (statusCode >= 300)
        tally.adminFailed.push(`${method} ${path}: ${statusCode} ${JSON.stringify(json).slice(0, 200)}`);
      return json;
    } catch (error) {
      tally.adminFailed.push(`${method} ${path}: ${error.code ?? ''} ${error.message}`);
      return undefined;
    }
  }

  const samples = [];
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  let nextSample = 0;
  let nextSecond = 1;
  let second = 0;
  while (elapsed() < SECONDS) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      console.error(
        `\nFAILED: the server exited during the run (${server.child.exitCode ?? server.child.signalCode}) after ${elapsed().toFixed(1)} s:\n${server.stderr().slice(0, 1500)}`,
      );
      process.exit(1);
    }
    const due = Math.floor(elapsed() * RATE);
    while (tally.sent < due) track(operation(tally.sent++));
    if (elapsed() >= nextSample) {
      const s = sample(pid);
      samples.push({ t: Math.round(elapsed()), ...s, inFlight: inFlight.size });
      nextSample += SAMPLE;
    }
    if (elapsed() >= nextSecond) {
      nextSecond += 1;
      second++;
      // Every second a journal read; every 3 s a scenario switch; every 4 s a fault; every 10 s HAR and verify.
      track(
        admin('GET', '/requests').then((json) => {
          const last = json?.requests?.at(-1);
          if (last) return admin('GET', `/requests/${last.id}`);
          return undefined;
        }),
      );
      if (second % 3 === 0) {
        track(admin('PUT', '/scenario', { name: SWITCHED[(second / 3) % SWITCHED.length] }));
        tally.switches++;
      }
      if (second % 4 === 0) {
        const fault = FAULTS[(second / 4) % FAULTS.length];
        if (fault.kind === 'reset') tally.plannedResets += fault.times;
        track(admin('POST', '/faults', fault));
        tally.faultsPlanned++;
      }
      if (second % 10 === 0) {
        track(admin('GET', '/requests?operation=meta/cp'));
        track(admin('GET', '/verify'));
        track(admin('GET', '/requests.har'));
      }
    }
    await sleep(5);
  }
  await Promise.allSettled([...inFlight]);
  const loadSeconds = elapsed();
  samples.push({ t: Math.round(loadSeconds), ...sample(pid), inFlight: 0 });
  await admin('DELETE', '/faults');
  await pool.close();
  // The server closes its side once the client's connections are gone.
  let after = sample(pid);
  for (let i = 0; i < 100 && Math.abs(after.fds - baseline.fds) > FD_SLACK; i++) {
    await sleep(100);
    after = sample(pid);
  }

  // Checks.
  // RSS saws up and down with garbage collection: compare the medians of the two halves of the
  // samples after the warm-up; a leak (an unbounded journal, say) raises the second.
  const loadSamples = samples.filter((s) => s.t >= WARMUP);
  const half = Math.max(1, Math.floor(loadSamples.length / 2));
  const reference = median(loadSamples.slice(0, half).map((s) => s.rssMb));
  const final = median(loadSamples.slice(half).map((s) => s.rssMb));
  const growth = final / reference - 1;
  const sorted = tally.latencies.sort((a, b) => a - b);
  const failures = [];
  if (!(growth <= RSS_GROWTH))
    failures.push(
      `RSS grew ${(growth * 100).toFixed(1)}% after the warm-up (median ${reference.toFixed(1)} → ${final.toFixed(1)} MB; limit ${RSS_GROWTH * 100}%)`,
    );
  if (Math.abs(after.fds - baseline.fds) > FD_SLACK)
    failures.push(
      `open descriptors did not return to the baseline: ${baseline.fds} before, ${after.fds} after (slack ${FD_SLACK})`,
    );
  if (tally.unexpected.length)
    failures.push(
      `${tally.unexpected.length} error answer(s) nobody asked for:\n    ${tally.unexpected.join('\n    ')}`,
    );
  if (tally.resets > tally.plannedResets)
    failures.push(`${tally.resets} connection resets, only ${tally.plannedResets} planned`);
  if (tally.adminFailed.length)
    failures.push(
      `${tally.adminFailed.length} admin call(s) failed:\n    ${tally.adminFailed.slice(0, 10).join('\n    ')}`,
    );
  if (server.child.exitCode !== null)
    failures.push(`the server exited during the run (${server.child.exitCode}): ${server.stderr()}`);
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  process.off('exit', killServer);
  if (code !== 0) failures.push(`the server exited with ${code} on SIGTERM: ${server.stderr().slice(0, 500)}`);

  console.log('\n  t (s)  RSS MB  fds  in flight');
  for (const s of samples)
    console.log(
      `  ${String(s.t).padStart(5)}  ${s.rssMb.toFixed(1).padStart(6)}  ${String(s.fds).padStart(3)}  ${String(s.inFlight).padStart(9)}`,
    );
  const answered = tally.ok + Object.values(tally.asked).reduce((a, b) => a + b, 0);
  console.log(`
summary (${loadSeconds.toFixed(1)} s):
  operation requests  ${tally.sent} sent (${(tally.sent / loadSeconds).toFixed(1)}/s), ${tally.ok} answered 200, ${answered - tally.ok} faults answered as asked, ${tally.resets} resets (${tally.plannedResets} planned), ${tally.unexpected.length} unexpected
  faults answered     ${
    Object.entries(tally.asked)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'none'
  }
  latency             p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms
  admin calls         ${tally.admin} (${tally.switches} scenario switches, ${tally.faultsPlanned} faults planned, journal reads every second), ${tally.adminFailed.length} failed
  RSS                 baseline ${baseline.rssMb.toFixed(1)} MB; after the warm-up, median of the first half ${reference.toFixed(1)} MB, of the second half ${final.toFixed(1)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%, limit ${RSS_GROWTH * 100}%); max ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)} MB
  descriptors         baseline ${baseline.fds}, max ${Math.max(...samples.map((s) => s.fds))}, after ${after.fds}
  server exit         ${code}`);
  if (failures.length) {
    console.log(`\nFAILED:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\nOK: memory flat, no descriptor leak, no error answer that was not asked for.');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
