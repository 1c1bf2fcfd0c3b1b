// `npm run bench`: mockvideo against talkback, the tool users would pick instead, and against a
// bare `node:http` server (the limit), on the targets of issues 32 and 40:
//   - `serve` ≥ 1.75× and `replay` of 10 recordings ≥ 1.5× talkback (talkback replaying tapes it
//     recorded from the bench's own upstream, with `_nonce`/`_ts` ignored, as a user replaying this API must);
//   - cold start (spawn → first answer) of `serve` and `replay` of 10 no slower than talkback's;
//   - replay of 10,000 recordings ready ≤ 1.5 s and within 10% of replay of 10 in req/s;
//   - replay of 100,000 recordings loads and answers correctly: ready ≤ 6 s, a nearest miss ≤ 100 ms
//     (no throughput promise).
// It prints req/s, p50/p99, the server's CPU per request, RSS and the load generator's own CPU per
// request beside the ratios (on a shared machine the loader can be the bottleneck), and writes
// bench/results/latest.json. Servers run on the Node that runs this script: `node bench/run.mjs`
// with Node 24's binary measures Node 24.
//
// Servers run pinned to core 0 (`taskset -c 0`), the load (autocannon) in this process on core 1.
// talkback is installed into a temporary folder (`npm install --prefix <tmp> talkback@4`).
// Knobs (environment): BENCH_QUICK=1 (a smoke run: 1-s rounds, one round, 2,000/5,000 recordings),
// BENCH_SECONDS=5, BENCH_RUNS=3 (interleaved rounds; the median is reported), BENCH_CONNECTIONS=50,
// BENCH_TALKBACK_PREFIX (a folder where talkback is, or is to be, installed and kept).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAN_PIN, killServers, startServer } from './spawn.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'mockvideo.js');
const NODE_BASELINE = join(ROOT, 'bench', 'baseline-node.mjs');
const TALKBACK = join(ROOT, 'bench', 'talkback-server.mjs');
const RESULTS = join(ROOT, 'bench', 'results');
const QUICK = process.env.BENCH_QUICK === '1';
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** A numeric knob from the environment; `fallback` is the full run's default, `quick` the smoke run's. */
function env(name, fallback, quick = fallback) {
  const value = Number(process.env[name] ?? (QUICK ? quick : fallback));
  return Number.isFinite(value) ? value : fallback;
}

const SETTINGS = {
  seconds: env('BENCH_SECONDS', 5, 1),
  runs: env('BENCH_RUNS', 3, 1),
  connections: env('BENCH_CONNECTIONS', 50, 10),
  medium: QUICK ? 2000 : 10_000,
  coldRuns: env('BENCH_COLD_RUNS', 11, 3),
  large: QUICK ? 5000 : 100_000,
};

const started = Date.now();
function log(line) {
  process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One GET; resolves with status, headers, body and the milliseconds it took. */
function get(url, useAgent = agent) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: useAgent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - t0,
          }),
        );
      })
      .on('error', reject);
  });
}

/** CPU time (user + system) the process `pid` has used so far, in milliseconds. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Resident memory of process `pid`, in MB. */
function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
  } catch {
    return null;
  }
}

function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);

async function main() {
  const { default: autocannon } = await import('autocannon');
  const fixtures = await import('./fixtures.mjs');
  const temps = [];
  process.on('exit', killServers);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      pinned: CAN_PIN,
      loadAverageAtStart: loadavg()[0],
    },
    settings: SETTINGS,
    quick: QUICK,
    load: {},
    large: {},
    targets: [],
    notes: [],
  };
  try {
    const { talkbackPrefix, upstream, paths } = await setUp(fixtures, results, temps);
    const servers = await startServers(fixtures, results, temps, talkbackPrefix, upstream, paths);
    await checkAnswers(servers, paths);
    await measureLoad(autocannon, results, servers, paths);
    await measureLarge(fixtures, results, temps, paths);
    await measureColdStart(results, talkbackPrefix, upstream, paths, servers.coldStartArgs);
    const { importTime, importTimeLine } = await import('./import-time.mjs'); // issue 31: import('mockvideo') vs msw alone
    log(importTimeLine((results.importTime = importTime())));
    judgeTargets(results);
    writeResults(results);
  } finally {
    killServers();
    agent.destroy();
    for (const path of temps) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Step 1: talkback installed, the upstream (bare node:http sending mockvideo serve's own answers)
 * started, and the request paths: the six operations, and ten requests (operation i % 6,
 * `_uspace=i`) with a fresh `_nonce` and `_ts` each, as a client sends them.
 */
async function setUp(fixtures, results, temps) {
  const { installTalkback } = await import('./references.mjs');
  log(
    process.env.BENCH_TALKBACK_PREFIX
      ? `talkback from ${process.env.BENCH_TALKBACK_PREFIX}`
      : 'installing talkback into a temporary folder',
  );
  const install = installTalkback(process.env.BENCH_TALKBACK_PREFIX);
  if (install.made) temps.push(install.prefix);
  results.references = { talkback: install.version, node: process.version };

  const serve = await startServer('serve-capture', [BIN, 'serve', '--port', '0']);
  const bodies = {};
  for (const op of fixtures.OPERATION_NAMES) {
    const answer = await get(`${serve.url}${fixtures.clientPath(op)}`);
    if (answer.status !== 200) throw new Error(`mockvideo answered ${answer.status} to ${op}`);
    bodies[`/api/g1/${op}`] = { contentType: answer.headers['content-type'], body: answer.body.toString('utf8') };
  }
  await serve.stop();
  const bodiesFile = join(tmpdir(), `mockvideo-bench-bodies-${process.pid}.json`);
  temps.push(bodiesFile);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const upstream = await startServer('node-http', [NODE_BASELINE, bodiesFile]);
  const withVolatile = (path, i) =>
    path.replace(/_nonce=[^&]*/, `_nonce=${1000 + i}`).replace(/_ts=\d+/, `_ts=${Math.floor(Date.now() / 1000) - i}`);
  const six = fixtures.OPERATION_NAMES.map((op) => fixtures.clientPath(op));
  const tenRecorded = Array.from({ length: 10 }, (_, i) =>
    fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i)),
  );
  // Replayed with other `_nonce`/`_ts` values than recorded: 20 requests over the 10 recordings.
  const ten = Array.from({ length: 20 }, (_, i) => withVolatile(tenRecorded[i % 10], i + 7));
  const bodyText = Object.fromEntries(fixtures.OPERATION_NAMES.map((op) => [op, bodies[`/api/g1/${op}`].body]));
  return { talkbackPrefix: install.prefix, upstream, paths: { six, tenRecorded, ten, bodyText } };
}

/**
 * Step 2: the servers under load: node:http (the limit), mockvideo serve, talkback replaying the 10
 * tapes it recorded through itself, mockvideo replay of 10 recordings and of {@link SETTINGS}.medium
 * (written by the fixtures: recording i is operation i % 6 with `_uspace=i`), with the readiness of the latter.
 */
async function startServers(fixtures, results, temps, talkbackPrefix, upstream, paths) {
  const volatile = fixtures.DEFAULT_POLICY.volatile.join(',');
  const tapes = fixtures.tempDir('mockvideo-bench-tapes-');
  temps.push(tapes);
  const recorder = await startServer('talkback-record', [
    TALKBACK,
    talkbackPrefix,
    tapes,
    upstream.url,
    'record',
    volatile,
  ]);
  const recordAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (const path of paths.tenRecorded)
    if ((await get(`${recorder.url}${path}`, recordAgent)).status !== 200)
      throw new Error(`talkback did not record ${path}`);
  recordAgent.destroy();
  await recorder.stop();
  const tapeCount = readdirSync(tapes, { recursive: true }).filter((f) => /\.json5?$/.test(String(f))).length;
  if (tapeCount !== 10) throw new Error(`talkback wrote ${tapeCount} tapes, not 10`);

  const small = fixtures.writeRecordings(10, paths.bodyText);
  const medium = fixtures.writeRecordings(SETTINGS.medium, paths.bodyText);
  temps.push(small.dir, medium.dir);
  log(`talkback recorded 10 tapes; wrote recording folders of 10 and ${SETTINGS.medium}`);
  const servers = {
    coldStartArgs: { tapes, small: small.dir, volatile },
    node: upstream,
    serve: await startServer('serve', [BIN, 'serve', '--port', '0', '--quiet']),
    serveFuzz: await startServer('serve-fuzz', [BIN, 'serve', '--port', '0', '--quiet', '--fuzz', '42']),
    talkback: await startServer('talkback', [TALKBACK, talkbackPrefix, tapes, upstream.url, 'replay', volatile]),
    replay10: await startServer('replay-10', [BIN, 'replay', small.dir, '--port', '0', '--no-watch', '--quiet']),
  };
  const { server, readySeconds } = await startReplay(`replay-${SETTINGS.medium}`, medium.dir, paths.tenRecorded[0]);
  servers.replayMedium = server;
  results.mediumReadySeconds = readySeconds;
  log(`replay of ${SETTINGS.medium} recordings: first answer ${readySeconds.toFixed(2)} s after the spawn`);
  return servers;
}

/** Starts `mockvideo replay DIR` and waits for its first 200 to `path`; readiness is spawn → that answer, in seconds. */
async function startReplay(name, dir, path) {
  const server = await startServer(name, [BIN, 'replay', dir, '--port', '0', '--no-watch', '--quiet'], {
    timeoutMs: 120_000,
  });
  for (;;) {
    const answer = await get(`${server.url}${path}`).catch(() => null);
    if (answer?.status === 200) break;
  }
  return { server, readySeconds: Number(process.hrtime.bigint() - server.t0) / 1e9 };
}

/** Step 3: every server answers every path of its case with 200 (replay: an exact match). */
async function checkAnswers(servers, paths) {
  for (const [server, list] of [
    [servers.serve, paths.six],
    [servers.serveFuzz, paths.six],
    [servers.talkback, paths.ten],
    [servers.replay10, paths.ten],
    [servers.replayMedium, paths.ten],
  ]) {
    for (const path of list) {
      const answer = await get(`${server.url}${path}`);
      if (answer.status !== 200) throw new Error(`${server.name} answered ${answer.status} to ${path}`);
      if (server.name.startsWith('replay') && answer.headers['x-mockvideo-match'] !== 'exact')
        throw new Error(`${server.name} matched ${answer.headers['x-mockvideo-match']} for ${path}`);
    }
  }
}

/**
 * Step 4: interleaved rounds of load on every case (after a 1-s warm-up each); per case the median
 * req/s, latency, the server's CPU per request and the loader's (this process's) CPU per request.
 */
async function measureLoad(autocannon, results, servers, paths) {
  const cases = [
    { name: 'node', what: 'bare node:http, precomputed bytes (the limit)', server: servers.node, paths: paths.six },
    {
      name: 'serve',
      what: 'mockvideo serve, default scenario, six operations',
      server: servers.serve,
      paths: paths.six,
    },
    {
      name: 'serve-fuzz',
      what: 'mockvideo serve --fuzz 42: a generated answer per request (issue 33)',
      server: servers.serveFuzz,
      paths: paths.six,
    },
    {
      name: 'talkback-10',
      what: `talkback ${results.references.talkback}, 10 tapes, _nonce/_ts ignored`,
      server: servers.talkback,
      paths: paths.ten,
    },
    { name: 'replay-10', what: 'mockvideo replay, 10 recordings', server: servers.replay10, paths: paths.ten },
    {
      name: `replay-${SETTINGS.medium}`,
      what: `mockvideo replay, ${SETTINGS.medium} recordings (the same 10 requested)`,
      server: servers.replayMedium,
      paths: paths.ten,
    },
  ];
  const run = (c, seconds) =>
    new Promise((resolve, reject) => {
      autocannon(
        {
          url: c.server.url,
          connections: SETTINGS.connections,
          duration: seconds,
          requests: c.paths.map((path) => ({ method: 'GET', path })),
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      );
    });
  for (const c of cases) await run(c, QUICK ? 0.5 : 1);
  const rounds = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let round = 0; round < SETTINGS.runs; round++) {
    for (const c of cases) {
      const server0 = cpuMs(c.server.child.pid);
      const loader0 = process.cpuUsage();
      const r = await run(c, SETTINGS.seconds);
      const loader = process.cpuUsage(loader0);
      const total = r.requests.total || NaN;
      const figures = {
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        serverCpuUs: ((cpuMs(c.server.child.pid) - server0) * 1000) / total,
        loaderCpuUs: (loader.user + loader.system) / total,
        failed: r.non2xx + r.errors + r.timeouts,
      };
      rounds[c.name].push(figures);
      log(
        `round ${round + 1}/${SETTINGS.runs} ${c.name.padEnd(14)} ${Math.round(figures.rps)} req/s  p99 ${figures.p99} ms  server ${figures.serverCpuUs.toFixed(0)} µs, loader ${figures.loaderCpuUs.toFixed(0)} µs CPU/request${figures.failed ? `  failed ${figures.failed}` : ''}`,
      );
    }
  }
  for (const c of cases) {
    const rs = rounds[c.name];
    results.load[c.name] = {
      what: c.what,
      rps: Math.round(median(rs.map((r) => r.rps))),
      p50Ms: median(rs.map((r) => r.p50)),
      p99Ms: median(rs.map((r) => r.p99)),
      serverCpuUs: Math.round(median(rs.map((r) => r.serverCpuUs))),
      loaderCpuUs: Math.round(median(rs.map((r) => r.loaderCpuUs))),
      rssMb: rssMb(c.server.child.pid),
      failed: rs.reduce((sum, r) => sum + r.failed, 0),
      rounds: rs,
    };
  }
}

/**
 * Step 5: replay of {@link SETTINGS}.large recordings: ready (spawn → first answer), every one of
 * 60 requests spread over the folder answered by its own recording (exact), and a miss answered by
 * the nearest recording (the median of 5, and RSS after).
 */
async function measureLarge(fixtures, results, temps, paths) {
  const t0 = Date.now();
  const large = fixtures.writeRecordings(SETTINGS.large, paths.bodyText);
  temps.push(large.dir);
  log(`wrote ${SETTINGS.large} recordings in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const { server, readySeconds } = await startReplay(`replay-${SETTINGS.large}`, large.dir, paths.tenRecorded[0]);
  let exact = 0;
  const spread = Array.from({ length: 60 }, (_, k) => Math.floor((k * SETTINGS.large) / 60) + (k % 6));
  for (const i of spread) {
    const answer = await get(`${server.url}${fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i))}`);
    if (answer.status === 200 && answer.headers['x-mockvideo-match'] === 'exact') exact++;
  }
  const misses = [];
  let nearest = 0;
  for (let k = 0; k < 5; k++) {
    const answer = await get(`${server.url}${fixtures.clientPath('meta/cp', `unknown-${k}`)}`);
    misses.push(answer.ms);
    if (answer.status === 200 && answer.headers['x-mockvideo-match'] === 'nearest') nearest++;
  }
  results.large = {
    recordings: SETTINGS.large,
    readySeconds,
    exact,
    asked: spread.length,
    nearest,
    misses: misses.length,
    nearestMissMs: Math.round(median(misses) * 10) / 10,
    rssMb: rssMb(server.child.pid),
  };
  log(
    `replay of ${SETTINGS.large}: ready ${readySeconds.toFixed(2)} s, ${exact}/${spread.length} exact, nearest miss ${results.large.nearestMissMs} ms, RSS ${results.large.rssMb} MB`,
  );
  await server.stop();
}

/**
 * Step 6: cold starts (issue 40, item 8): spawn → first answer of `serve`, `replay` of 10 recordings
 * and talkback replaying its 10 tapes, {@link SETTINGS}.coldRuns rounds interleaved (see
 * bench/cold-start.mjs), each server pinned to core 0 as under load.
 */
async function measureColdStart(results, talkbackPrefix, upstream, paths, { tapes, small, volatile }) {
  const { measureColdStarts } = await import('./cold-start.mjs');
  const pinned = (args) => ({
    command: CAN_PIN ? 'taskset' : process.execPath,
    args: CAN_PIN ? ['-c', '0', process.execPath, ...args] : args,
    path: paths.tenRecorded[0],
  });
  results.coldStart = await measureColdStarts(
    {
      serve: pinned([BIN, 'serve', '--port', 'PORT', '--quiet']),
      'replay-10': pinned([BIN, 'replay', small, '--port', 'PORT', '--no-watch', '--quiet']),
      talkback: pinned([TALKBACK, talkbackPrefix, tapes, upstream.url, 'replay', volatile]),
    },
    SETTINGS.coldRuns,
  );
  const c = results.coldStart;
  log(
    `cold start (spawn → first answer, median of ${SETTINGS.coldRuns}): serve ${c.serve.medianMs} ms, replay of 10 ${c['replay-10'].medianMs} ms, talkback ${c.talkback.medianMs} ms`,
  );
}

/** Step 7: the targets of issues 32, 33 and 40, each met or not with its figures. */
function judgeTargets(results) {
  const L = results.load;
  const medium = L[`replay-${SETTINGS.medium}`];
  const big = results.large;
  const loaderOf = (...names) => `loader ${names.map((n) => `${L[n].loaderCpuUs}`).join('/')} µs CPU/request`;
  const target = (name, met, detail) => results.targets.push({ name, met, detail });
  target(
    'serve ≥ 1.75× talkback (issue 40)',
    L.serve.rps >= 1.75 * L['talkback-10'].rps,
    `${ratio(L.serve.rps, L['talkback-10'].rps)}× (${L.serve.rps} vs ${L['talkback-10'].rps} req/s; ${loaderOf('serve', 'talkback-10')})`,
  );
  target(
    'replay of 10 ≥ 1.5× talkback',
    L['replay-10'].rps >= 1.5 * L['talkback-10'].rps,
    `${ratio(L['replay-10'].rps, L['talkback-10'].rps)}× (${L['replay-10'].rps} vs ${L['talkback-10'].rps} req/s; ${loaderOf('replay-10', 'talkback-10')})`,
  );
  target(
    `replay of ${SETTINGS.medium} ready ≤ 1.5 s`,
    results.mediumReadySeconds <= 1.5,
    `${results.mediumReadySeconds.toFixed(2)} s (spawn → first answer)`,
  );
  target(
    `replay of ${SETTINGS.medium} within 10% of replay of 10`,
    medium.rps >= 0.9 * L['replay-10'].rps,
    `${ratio(medium.rps, L['replay-10'].rps)}× (${medium.rps} vs ${L['replay-10'].rps} req/s; ${loaderOf(`replay-${SETTINGS.medium}`, 'replay-10')})`,
  );
  target(`replay of ${SETTINGS.large} ready ≤ 6 s`, big.readySeconds <= 6, `${big.readySeconds.toFixed(2)} s`);
  target(
    `replay of ${SETTINGS.large} answers correctly`,
    big.exact === big.asked && big.nearest === big.misses,
    `${big.exact}/${big.asked} exact, ${big.nearest}/${big.misses} misses answered by the nearest`,
  );
  target(
    `replay of ${SETTINGS.large}: nearest miss ≤ 100 ms`,
    big.nearestMissMs <= 100,
    `${big.nearestMissMs} ms (median of ${big.misses})`,
  );
  target(
    'serve --fuzz ≥ 25% of serve (issue 33)',
    L['serve-fuzz'].rps >= 0.25 * L.serve.rps,
    `${ratio(L['serve-fuzz'].rps, L.serve.rps)}× (${L['serve-fuzz'].rps} vs ${L.serve.rps} req/s; ${loaderOf('serve-fuzz', 'serve')})`,
  );
  const cold = results.coldStart;
  for (const name of ['serve', 'replay-10'])
    target(
      `${name} cold start ≤ talkback's (issue 40)`,
      cold[name].medianMs <= cold.talkback.medianMs,
      `${ratio(cold[name].medianMs, cold.talkback.medianMs)}× (${cold[name].medianMs} vs ${cold.talkback.medianMs} ms, spawn → first answer; min–max ${cold[name].minMs}–${cold[name].maxMs} vs ${cold.talkback.minMs}–${cold.talkback.maxMs})`,
    );
  for (const [name, r] of Object.entries(L))
    if (r.failed) results.notes.push(`${name}: ${r.failed} requests failed or were not 2xx.`);
}

/** Step 8: bench/results/latest.json (quick.json for a quick run) and the table on stdout. */
function writeResults(results) {
  results.durationSeconds = Math.round((Date.now() - started) / 1000);
  results.machine.loadAverageAtEnd = loadavg()[0];
  if (QUICK) results.notes.push('A quick run (BENCH_QUICK=1): its figures are not the benchmark.');
  if (Math.max(results.machine.loadAverageAtStart, results.machine.loadAverageAtEnd) > 1.5)
    results.notes.push(
      'Other processes loaded the machine during the run (1-minute load average above 1.5): absolute figures are noisy; compare the ratios.',
    );
  mkdirSync(RESULTS, { recursive: true });
  const file = QUICK ? 'quick.json' : 'latest.json';
  writeFileSync(join(RESULTS, file), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `\n${formatTable(results)}\n\nWritten to bench/results/${file} (${results.durationSeconds} s).\n`,
  );
}

function formatTable(results) {
  const L = results.load;
  const row = (cells) => `| ${cells.join(' | ')} |`;
  const lines = [
    row(['case', 'req/s', '÷ talkback', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'loader CPU µs/req', 'RSS MB']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...Object.entries(L).map(([name, r]) =>
      row([
        `${name} (${r.what})`,
        r.rps,
        `${ratio(r.rps, L['talkback-10'].rps)?.toFixed(2)}×`,
        r.p50Ms,
        r.p99Ms,
        r.serverCpuUs,
        r.loaderCpuUs,
        r.rssMb,
      ]),
    ),
    '',
    'Targets:',
    ...results.targets.map((t) => `  ${(t.met ? '✓ met' : '✗ NOT MET').padEnd(11)} ${t.name}: ${t.detail}`),
    '',
    `Machine: ${results.machine.cpus} × ${results.machine.cpu}, Node ${results.machine.node}, ${results.machine.pinned ? 'pinned with taskset' : 'not pinned'}; load average ${results.machine.loadAverageAtStart.toFixed(1)} at start, ${results.machine.loadAverageAtEnd.toFixed(1)} at end.`,
    `Load: autocannon, ${SETTINGS.connections} connections, median of ${SETTINGS.runs} interleaved ${SETTINGS.seconds}-s rounds. talkback ${results.references.talkback}.`,
    ...results.notes,
  ];
  return lines.join('\n');
}

// Re-run this script pinned to core 1, so the load never shares a core with the servers.
if (CAN_PIN && !process.env.BENCH_PINNED) {
  const child = spawn(
    'taskset',
    ['-c', '1', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: '1' } },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main();
}
