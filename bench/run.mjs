// `npm run bench`: measures mockvideo against the tools users would pick instead, in one run:
// talkback (replaying tapes it recorded from the bench's own upstream), a bare `node:http` server
// sending precomputed bytes (the limit), and a bare Express 5 app sending the same bytes. It prints
// req/s, p50/p99 latency, the server's CPU time per request, RSS, the ratios to talkback and to
// node:http, cold starts, and one verdict line per target (issue 22); writes them to
// bench/results/latest.json (bench/results/quick.json for a quick run). A full run keeps the run
// before it as bench/results/previous.json and, when that is from the same UTC day, says whether
// this run repeats it (bench/repeat.mjs: targets met in both, headline ratios within the noise).
//
// Servers under test run as child processes pinned to core 0 (`taskset -c 0`), the load comes from
// this process pinned to core 1. talkback is installed by the bench into a temporary folder
// (`npm install --prefix <tmp> talkback@4`; needs the npm registry) and removed at the end.
// Knobs (environment):
//   BENCH_QUICK=1          a smoke run: 1-second rounds, one round, no warm-up, 10 connections,
//                          1,000 recordings, one cold start each, no profile, and the headline and
//                          replay cases only (checks that everything starts and answers; figures
//                          are not comparable)
//   BENCH_SECONDS=5        duration of one measured load run
//   BENCH_RUNS=4           measured runs per case, interleaved across cases; the median is reported
//   BENCH_PROCESSES=4      server processes per server under load; a case's runs take them in turn
//                          (one process of the same build can run 10-20% faster or slower than
//                          another, for the whole of its life: with one or two processes per case,
//                          ratios between cases depended on which process got lucky; with four,
//                          each of the 4 runs is another process and the median spans them)
//   BENCH_WARMUP=1         seconds of load before the first measured run of each server
//   BENCH_CONNECTIONS=50   concurrent connections
//   BENCH_RECORDINGS=100000  size of the large recording set
//   BENCH_COLD_STARTS=5    spawns per server for the cold start median
//   BENCH_RECORD_REQUESTS=1000  sequential requests per side for the recording proxy's added latency
//   BENCH_INPROC_SECONDS=20 measured time of the in-process case: short interleaved blocks of
//                          both handler sets, in a process of its own (bench/in-process.mjs)
//   BENCH_PROFILE=1        also run the serve case once under `node --cpu-prof` and list the top frames (0: skip)
//   BENCH_CASES            only these load cases, comma-separated (e.g. talkback-10,replay-10,replay-100000),
//                          for looking into one target; the targets of the cases left out read 'not measured',
//                          and the results go to bench/results/cases.json (latest.json is for full runs)
//   BENCH_TALKBACK_PREFIX  a folder where talkback is (or is to be) installed, kept after the run
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAN_PIN, killServers, startServer } from './spawn.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'mockvideo.js');
const BASELINE = join(ROOT, 'bench', 'baseline-express.mjs');
const NODE_BASELINE = join(ROOT, 'bench', 'baseline-node.mjs');
const TALKBACK = join(ROOT, 'bench', 'talkback-server.mjs');
const RESULTS = join(ROOT, 'bench', 'results');
const QUICK = process.env.BENCH_QUICK === '1';
// Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux).
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

// Re-run this script pinned to core 1, so the load never shares a core with the server.
if (CAN_PIN && !process.env.BENCH_PINNED) {
  const child = spawn('taskset', ['-c', '1', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main();
}

/** A numeric knob from the environment; `fallback` is the full run's default, `quick` the smoke run's. */
function env(name, fallback, quick = fallback) {
  const value = Number(process.env[name] ?? (QUICK ? quick : fallback));
  return Number.isFinite(value) ? value : fallback;
}

async function main() {
  const { default: autocannon } = await import('autocannon');
  const fixtures = await import('./fixtures.mjs');
  const { installTalkback } = await import('./references.mjs');
  const SECONDS = env('BENCH_SECONDS', 5, 1);
  const RUNS = env('BENCH_RUNS', 4, 1);
  const PROCESSES = env('BENCH_PROCESSES', 4, 1);
  const WARMUP = env('BENCH_WARMUP', 1, 0);
  const CONNECTIONS = env('BENCH_CONNECTIONS', 50, 10);
  const BIG = env('BENCH_RECORDINGS', 100_000, 1000);
  const COLD = env('BENCH_COLD_STARTS', 5, 1);
  const RECORD_REQUESTS = env('BENCH_RECORD_REQUESTS', 1000, 50);
  const INPROC_SECONDS = env('BENCH_INPROC_SECONDS', 20, 2);
  const PROFILE = env('BENCH_PROFILE', 1, 0) !== 0;
  const ONLY_CASES = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',').map((name) => name.trim()) : null;
  const started = Date.now();
  const temps = [];
  process.on('exit', killServers);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  const log = (line) => process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** One GET; resolves with status, headers and body. */
  function get(url, useAgent = agent) {
    return new Promise((resolve, reject) => {
      http
        .get(url, { agent: useAgent }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  /** CPU time (user + system) the process `pid` has used so far, in milliseconds; `NaN` when it cannot be read. */
  function cpuMs(pid) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return NaN;
    }
  }

  function rssMb(pid) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
      return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
    } catch {
      return { rss: null, peak: null };
    }
  }

  /** One autocannon run; requests rotate over `paths` on every connection. */
  function load(url, paths, seconds) {
    return new Promise((resolve, reject) => {
      autocannon(
        { url, connections: CONNECTIONS, duration: seconds, requests: paths.map((path) => ({ method: 'GET', path })) },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  }
  const median = (values) => {
    const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
    if (!sorted.length) return null;
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };

  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, pinned: CAN_PIN, loadAverageAtStart: loadavg()[0] },
    settings: { seconds: SECONDS, runs: RUNS, processes: PROCESSES, warmup: WARMUP, connections: CONNECTIONS, recordings: BIG, coldStarts: COLD, recordRequests: RECORD_REQUESTS, inProcessSeconds: INPROC_SECONDS },
    load: {},
    coldStart: {},
    inProcess: {},
    record: {},
    targets: [],
    notes: [],
  };

  try {
    // 0. talkback, installed into a temporary folder (never into the repository).
    log(process.env.BENCH_TALKBACK_PREFIX ? `talkback from ${process.env.BENCH_TALKBACK_PREFIX} (installed there if missing)` : 'installing talkback into a temporary folder (npm install --prefix <tmp> talkback@4)');
    const talkbackInstall = installTalkback(process.env.BENCH_TALKBACK_PREFIX);
    if (talkbackInstall.made) temps.push(talkbackInstall.prefix);
    results.references = { talkback: talkbackInstall.version, express: JSON.parse(readFileSync(join(ROOT, 'node_modules', 'express', 'package.json'), 'utf8')).version, node: process.version };
    log(`talkback ${talkbackInstall.version} in ${talkbackInstall.prefix}`);

    // 1. mockvideo serve, and its answers: the references send exactly these bytes.
    log('starting mockvideo serve (default scenario)');
    const serve = await startServer('serve', [BIN, 'serve', '--port', '0']);
    const bodies = {};
    const bodyText = {};
    const sixPaths = fixtures.OPERATION_NAMES.map((op) => fixtures.clientPath(op));
    for (const op of fixtures.OPERATION_NAMES) {
      const answer = await get(`${serve.url}${fixtures.clientPath(op)}`);
      if (answer.status !== 200) throw new Error(`mockvideo answered ${answer.status} to ${op}: ${answer.body}`);
      const path = `/api/g1/${op}`;
      bodies[path] = { contentType: answer.headers['content-type'], body: answer.body.toString('utf8') };
      bodyText[op] = answer.body.toString('utf8');
    }
    const bodiesFile = join(tmpdir(), `mockvideo-bench-bodies-${process.pid}.json`);
    temps.push(bodiesFile);
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    log(`answers captured: ${fixtures.OPERATION_NAMES.map((op) => `${op} ${Buffer.byteLength(bodyText[op])} B`).join(', ')}`);

    log('starting the bare Express 5 and bare node:http references');
    const baseline = await startServer('express', [BASELINE, bodiesFile]);
    const nodeBase = await startServer('node-http', [NODE_BASELINE, bodiesFile]);
    for (const path of sixPaths) {
      const [a, b, c] = await Promise.all([get(`${serve.url}${path}`), get(`${baseline.url}${path}`), get(`${nodeBase.url}${path}`)]);
      if (!a.body.equals(b.body) || !a.body.equals(c.body)) throw new Error(`A reference's body differs from mockvideo's for ${path}.`);
    }

    // 2. Recordings made by each tool from the same upstream (node:http on 127.0.0.1): talkback's
    //    tapes and mockvideo's recordings of the six client requests, and talkback's of 10 requests.
    const settingPath = [fixtures.clientPath('meta/setting')];
    // talkback leaves out of its match the query parameters that mockvideo leaves out of its key.
    const ignoredByTalkback = [...fixtures.DEFAULT_POLICY.volatile, ...fixtures.DEFAULT_POLICY.secret, ...fixtures.DEFAULT_POLICY.identity].join(',');
    const tenPaths = Array.from({ length: 10 }, (_, i) => fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i)));
    const recordThrough = async (name, args, paths) => {
      const recorder = await startServer(name, args);
      const recordAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (const path of paths) {
        const answer = await get(`${recorder.url}${path}`, recordAgent);
        if (answer.status !== 200) throw new Error(`${name} answered ${answer.status} to ${path} while recording: ${answer.body.toString().slice(0, 500)}`);
      }
      recordAgent.destroy();
      await recorder.stop();
    };
    const countFiles = (dir) => readdirSync(dir, { recursive: true }).filter((f) => /\.json5?$/.test(String(f))).length;
    const tapes6 = fixtures.tempDir('mockvideo-bench-tapes-');
    const tapes10 = fixtures.tempDir('mockvideo-bench-tapes-');
    const recorded6 = fixtures.tempDir('mockvideo-bench-recorded-');
    temps.push(tapes6, tapes10, recorded6);
    await recordThrough('talkback-record', [TALKBACK, talkbackInstall.prefix, tapes6, nodeBase.url, 'record', ignoredByTalkback], sixPaths);
    await recordThrough('talkback-record-10', [TALKBACK, talkbackInstall.prefix, tapes10, nodeBase.url, 'record', ignoredByTalkback], tenPaths);
    await recordThrough('mockvideo-record', [BIN, 'record', '--upstream', nodeBase.url, '--out', recorded6, '--port', '0', '--quiet'], sixPaths);
    for (const [dir, expected] of [[tapes6, 6], [tapes10, 10], [recorded6, 6]]) {
      if (countFiles(dir) !== expected) throw new Error(`Expected ${expected} recordings in ${dir}, found ${countFiles(dir)}.`);
    }
    log('talkback recorded 6 and 10 tapes, mockvideo record 6 recordings, from the node:http upstream');
    const talkback = await startServer('talkback', [TALKBACK, talkbackInstall.prefix, tapes6, nodeBase.url, 'replay', ignoredByTalkback]);
    const replayRecorded = await startServer('replay-recorded', [BIN, 'replay', recorded6, '--port', '0']);

    // 3. Fixtures: 50 scenarios, recordings of 10 and BIG exchanges.
    const fifty = QUICK ? null : fixtures.writeScenarios(50);
    if (fifty) temps.push(fifty.dir);
    let t = Date.now();
    const small = fixtures.writeRecordings(10, bodyText);
    temps.push(small.dir);
    const big = fixtures.writeRecordings(BIG, bodyText);
    temps.push(big.dir);
    results.fixtures = { recordingsWriteSeconds: (Date.now() - t) / 1000, recordings: BIG };
    log(`wrote ${fifty ? '50 scenarios and ' : ''}recording sets of 10 and ${BIG} in ${results.fixtures.recordingsWriteSeconds} s`);

    log(`starting ${fifty ? 'mockvideo serve with 50 scenarios, ' : ''}talkback with 10 tapes, replay of 10 and of the large set`);
    const serve50 = fifty ? await startServer('serve-50', [BIN, 'serve', '--port', '0', '--scenarios-dir', fifty.dir]) : null;
    const talkback10 = await startServer('talkback-10', [TALKBACK, talkbackInstall.prefix, tapes10, nodeBase.url, 'replay', ignoredByTalkback]);
    const replay10 = await startServer('replay-10', [BIN, 'replay', small.dir, '--port', '0']);
    // 300 requests spread over the large set, with the operations in the same proportions as the 10
    // requests of replay-10 (recording i is of operation i % 6): the two cases differ by the number
    // of recordings only. (A stride of BIG / 300 = 333 used to pick ad_config and meta/plugin only.)
    const BIG_REQUESTS = Math.min(300, BIG);
    const perOperation = Math.floor(BIG / 6);
    const bigPaths = Array.from({ length: BIG_REQUESTS }, (_, k) => {
      const operation = (k % 10) % 6;
      return fixtures.clientPath(fixtures.OPERATION_NAMES[operation], String(operation + 6 * Math.floor((k * perOperation) / BIG_REQUESTS)));
    });
    const replayBig = await startServer('replay-big', [BIN, 'replay', big.dir, '--port', '0'], { timeoutMs: 300_000 });
    results.fixtures.replayBigStartSeconds = Number(process.hrtime.bigint() - replayBig.t0) / 1e9;
    for (;;) {
      const answer = await get(`${replayBig.url}${bigPaths[0]}`).catch(() => null);
      if (answer?.status === 200) break;
    }
    results.fixtures.replayBigReadySeconds = Number(process.hrtime.bigint() - replayBig.t0) / 1e9;
    log(`replay of ${BIG} recordings listening after ${results.fixtures.replayBigStartSeconds.toFixed(2)} s, first answer after ${results.fixtures.replayBigReadySeconds.toFixed(2)} s`);

    const fiftyPaths = fifty ? fifty.names.flatMap((name) => fixtures.OPERATION_NAMES.map((op) => fixtures.clientPath(op, '0', `/scenarios/${name}`))) : [];
    const checks = [[talkback, sixPaths], [replayRecorded, sixPaths], [talkback10, tenPaths], [replay10, tenPaths], [replayBig, bigPaths], ...(serve50 ? [[serve50, fiftyPaths]] : [])];
    for (const [server, paths] of checks) {
      for (const path of [paths[0], paths[paths.length - 1]]) {
        const answer = await get(`${server.url}${path}`);
        if (answer.status !== 200) throw new Error(`${server.name} answered ${answer.status} to ${path}: ${answer.body.toString().slice(0, 500)}`);
        if (server.name.startsWith('replay') && answer.headers['x-mockvideo-match'] !== 'exact') throw new Error(`${server.name} matched ${answer.headers['x-mockvideo-match']} for ${path}`);
      }
    }

    // Headline cases: the same request for everyone. Rotating cases: requests rotate over paths.
    // `talkback` and `node` name the cases whose req/s the ratios are taken to.
    const cases = [
      { name: 'node-setting', what: 'bare node:http, precomputed bytes: the limit', server: nodeBase, paths: settingPath, talkback: 'talkback-setting', node: 'node-setting' },
      { name: 'talkback-setting', what: `talkback ${talkbackInstall.version}, replaying the tape it recorded`, server: talkback, paths: settingPath, talkback: 'talkback-setting', node: 'node-setting' },
      { name: 'express-setting', what: 'bare Express 5, same bytes', server: baseline, paths: settingPath, talkback: 'talkback-setting', node: 'node-setting' },
      { name: 'serve-setting', what: 'mockvideo serve, default scenario', server: serve, paths: settingPath, talkback: 'talkback-setting', node: 'node-setting' },
      { name: 'replay-setting', what: 'mockvideo replay of the recording it recorded', server: replayRecorded, paths: settingPath, talkback: 'talkback-setting', node: 'node-setting' },
      { name: 'node', what: 'bare node:http, six routes', server: nodeBase, paths: sixPaths, talkback: 'talkback', node: 'node', full: true },
      { name: 'talkback', what: 'talkback, six tapes it recorded', server: talkback, paths: sixPaths, talkback: 'talkback', node: 'node', full: true },
      { name: 'express', what: 'bare Express 5, six routes', server: baseline, paths: sixPaths, talkback: 'talkback', node: 'node', full: true },
      { name: 'serve', what: 'mockvideo serve, default scenario, six operations', server: serve, paths: sixPaths, talkback: 'talkback', node: 'node' },
      { name: 'serve-50', what: 'serve, 50 scenarios, /scenarios/<name> prefixes', server: serve50, paths: fiftyPaths, talkback: 'talkback', node: 'node', full: true },
      { name: 'talkback-10', what: 'talkback, 10 tapes it recorded', server: talkback10, paths: tenPaths, talkback: 'talkback-10', node: 'node' },
      { name: 'replay-10', what: 'mockvideo replay, 10 recordings', server: replay10, paths: tenPaths, talkback: 'talkback-10', node: 'node' },
      { name: `replay-${BIG}`, what: `mockvideo replay, ${BIG} recordings (300 of them requested)`, server: replayBig, paths: bigPaths, talkback: 'talkback-10', node: 'node' },
    ]
      .filter((c) => !(QUICK && c.full))
      .filter((c) => !ONLY_CASES || ONLY_CASES.includes(c.name));
    results.cases = cases.map((c) => ({ name: c.name, what: c.what, paths: c.paths.length }));
    // More processes of every server under load, started alike; a case's runs take them in turn.
    const twins = new Map();
    if (PROCESSES > 1) {
      log(`starting ${PROCESSES - 1} more process(es) of each server under load`);
      for (const server of new Set(cases.map((c) => c.server))) {
        const more = [];
        for (let k = 2; k <= PROCESSES; k++) more.push(await startServer(`${server.name}-${k}`, server.args, server.options));
        twins.set(server, more);
      }
    }
    const processesOf = (server) => [server, ...(twins.get(server) ?? [])];
    if (WARMUP > 0) {
      log(`warm-up ${WARMUP} s per case and process`);
      for (const c of cases) for (const server of processesOf(c.server)) await load(server.url, c.paths, WARMUP);
    }
    const runs = Object.fromEntries(cases.map((c) => [c.name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const c of cases) {
        const all = processesOf(c.server);
        const server = all[run % all.length];
        const cpu0 = cpuMs(server.child.pid);
        const r = await load(server.url, c.paths, SECONDS);
        const cpuUs = r.requests.total ? ((cpuMs(server.child.pid) - cpu0) * 1000) / r.requests.total : null;
        runs[c.name].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs, non2xx: r.non2xx, errors: r.errors + r.timeouts });
        log(`run ${run + 1}/${RUNS} ${c.name.padEnd(18)} ${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ${cpuUs?.toFixed(0)} µs CPU/request${r.non2xx || r.errors ? `  non-2xx ${r.non2xx} errors ${r.errors}` : ''}`);
      }
    }
    for (const c of cases) {
      const rs = runs[c.name];
      // RSS: the median over the case's processes (their peak: the highest).
      const memories = processesOf(c.server).map((server) => rssMb(server.child.pid));
      const memory = { rss: median(memories.map((m) => m.rss)), peak: Math.max(...memories.map((m) => m.peak)) };
      results.load[c.name] = {
        what: c.what,
        rps: Math.round(median(rs.map((r) => r.rps))),
        p50Ms: median(rs.map((r) => r.p50)),
        p99Ms: median(rs.map((r) => r.p99)),
        cpuUsPerRequest: Math.round(median(rs.map((r) => r.cpuUs)) ?? NaN),
        non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
        errors: rs.reduce((s, r) => s + r.errors, 0),
        rssMb: memory.rss,
        peakRssMb: memory.peak,
        talkbackCase: c.talkback,
        nodeCase: c.node,
        runs: rs,
      };
    }
    for (const r of Object.values(results.load)) {
      r.vsTalkback = results.load[r.talkbackCase] ? Math.round((r.rps / results.load[r.talkbackCase].rps) * 100) / 100 : null;
      r.vsNode = results.load[r.nodeCase] ? Math.round((r.rps / results.load[r.nodeCase].rps) * 100) / 100 : null;
    }
    for (const more of twins.values()) for (const server of more) await server.stop();

    // 4. Recording proxy: added latency over calling the upstream (Express) directly, one request at a time.
    log(`recording proxy: ${RECORD_REQUESTS} sequential requests each, direct and through "mockvideo record"`);
    const recordDir = fixtures.tempDir('mockvideo-bench-record-');
    temps.push(recordDir);
    const recorder = await startServer('record', [BIN, 'record', '--upstream', baseline.url, '--out', recordDir, '--port', '0']);
    const direct = [];
    const proxied = [];
    const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const proxyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i++) {
      await get(`${baseline.url}${sixPaths[i % 6]}`, directAgent);
      await get(`${recorder.url}${sixPaths[i % 6]}`, proxyAgent);
    }
    for (let i = 0; i < RECORD_REQUESTS; i++) {
      const path = sixPaths[i % 6];
      let s = process.hrtime.bigint();
      await get(`${baseline.url}${path}`, directAgent);
      direct.push(Number(process.hrtime.bigint() - s) / 1e6);
      s = process.hrtime.bigint();
      const a = await get(`${recorder.url}${path}`, proxyAgent);
      proxied.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (a.status !== 200) throw new Error(`record answered ${a.status}`);
    }
    const pct = (values, p) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    };
    const round3 = (v) => Math.round(v * 1000) / 1000;
    results.record = {
      requests: RECORD_REQUESTS,
      directP50Ms: round3(pct(direct, 50)),
      directP99Ms: round3(pct(direct, 99)),
      proxyP50Ms: round3(pct(proxied, 50)),
      proxyP99Ms: round3(pct(proxied, 99)),
      addedP50Ms: round3(pct(proxied, 50) - pct(direct, 50)),
      addedP99Ms: round3(pct(proxied, 99) - pct(direct, 99)),
      rssMb: rssMb(recorder.child.pid).rss,
    };
    await recorder.stop();
    log(`record: direct p50 ${results.record.directP50Ms} ms, through the proxy ${results.record.proxyP50Ms} ms: +${results.record.addedP50Ms} ms`);

    for (const server of [serve50, talkback, talkback10, replayRecorded, replay10, replayBig]) await server?.stop();

    // 5. Cold start: spawn to the first 200 of one request, interleaved across the servers.
    log(`cold start: ${COLD} spawns each`);
    const settingOfTen = tenPaths[fixtures.OPERATION_NAMES.indexOf('meta/setting')];
    const coldCases = [
      { name: 'serve', what: 'mockvideo serve', args: [BIN, 'serve', '--port', '0'], path: settingPath[0] },
      { name: 'replay-10', what: 'mockvideo replay, 10 recordings', args: [BIN, 'replay', small.dir, '--port', '0'], path: settingOfTen },
      { name: 'talkback-10', what: 'talkback, 10 tapes', args: [TALKBACK, talkbackInstall.prefix, tapes10, nodeBase.url, 'replay', ignoredByTalkback], path: settingOfTen },
      { name: 'express', what: 'bare Express 5', args: [BASELINE, bodiesFile], path: settingPath[0] },
      { name: 'node', what: 'bare node:http', args: [NODE_BASELINE, bodiesFile], path: settingPath[0] },
    ];
    const coldStart = async ({ name, args, path }) => {
      const server = await startServer(`cold-${name}`, args);
      const coldAgent = new http.Agent({ keepAlive: false });
      for (;;) {
        const answer = await get(`${server.url}${path}`, coldAgent).catch(() => null);
        if (answer?.status === 200) break;
      }
      const ms = Number(process.hrtime.bigint() - server.t0) / 1e6;
      await server.stop();
      return ms;
    };
    const cold = Object.fromEntries(coldCases.map((c) => [c.name, []]));
    for (let i = 0; i < COLD; i++) {
      for (const c of coldCases) cold[c.name].push(await coldStart(c));
    }
    results.coldStart = Object.fromEntries(coldCases.map((c) => [c.name, { what: c.what, ms: Math.round(median(cold[c.name])), runs: cold[c.name] }]));
    log(`cold start: ${coldCases.map((c) => `${c.name} ${results.coldStart[c.name].ms} ms`).join(', ')}`);

    // 6. In-process: msw getResponse over createHandlers() against one hand-written handler, in a
    // process of its own (bench/in-process.mjs; in this one, the heap the run has built up made every
    // allocation dearer): the median over many short interleaved ABBA blocks (its header says why).
    log('in-process: getResponse(createHandlers()) vs one hand-written http.get handler (a process of its own)');
    const measured = spawnSync(process.execPath, [join(ROOT, 'bench', 'in-process.mjs'), settingPath[0], bodiesFile, String(INPROC_SECONDS)], { encoding: 'utf8' });
    if (measured.status !== 0) throw new Error(`in-process measurement failed:\n${measured.stderr}`);
    results.inProcess = JSON.parse(measured.stdout);
    log(`in-process: ${results.inProcess.mockvideoUs} µs vs ${results.inProcess.handWrittenUs} µs per request; ratio ${results.inProcess.ratio}× (median of ${results.inProcess.quads} ABBA quads, quartiles ${results.inProcess.ratioQuartiles.join('-')}; of totals ${results.inProcess.ratioOfTotals}×)`);

    // 7. Profile of the serve case (optional).
    if (PROFILE) {
      log('profiling mockvideo serve under load (node --cpu-prof)');
      const profileDir = join(RESULTS, 'profiles');
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
      const profiled = await startServer('serve-profile', [BIN, 'serve', '--port', '0'], { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
      await load(profiled.url, sixPaths, SECONDS);
      await profiled.stop();
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      results.profile = file ? { file: join('bench', 'results', 'profiles', file), ...summariseProfile(JSON.parse(readFileSync(join(profileDir, file), 'utf8'))) } : { error: 'no profile written' };
    }

    await serve.stop();
    await baseline.stop();
    await nodeBase.stop();

    // 8. Ratios and targets (issue 22, then the first benchmark's that still apply).
    const L = results.load;
    const C = results.coldStart;
    const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);
    // The CPU time per request, the steadier figure on a shared machine, is shown beside each req/s ratio.
    const cpuRatio = (a, b) => `CPU per request ${ratio(a.cpuUsPerRequest, b.cpuUsPerRequest)}×`;
    /** Adds one target; `measure` returns [met, detail], and is not called when a figure it needs is missing (a quick run). */
    const target = (name, needs, measure) => {
      const [met, detail] = needs.every((figure) => figure !== undefined && figure !== null) ? measure() : [null, 'not measured in this run'];
      results.targets.push({ name, met, detail });
    };
    const serveOne = L['serve-setting'];
    const talkbackOne = L['talkback-setting'];
    const replayBigCase = L[`replay-${BIG}`];
    target('serve ≥ 1.0× talkback req/s (the same request)', [serveOne, talkbackOne], () => [serveOne.rps >= talkbackOne.rps, `${ratio(serveOne.rps, talkbackOne.rps)}× (${serveOne.rps} vs ${talkbackOne.rps} req/s)`]);
    target('serve CPU µs per request ≤ talkback', [serveOne, talkbackOne], () => [serveOne.cpuUsPerRequest <= talkbackOne.cpuUsPerRequest, `${serveOne.cpuUsPerRequest} vs ${talkbackOne.cpuUsPerRequest} µs (${ratio(serveOne.cpuUsPerRequest, talkbackOne.cpuUsPerRequest)}×)`]);
    target('serve p99 ≤ talkback', [serveOne, talkbackOne], () => [serveOne.p99Ms <= talkbackOne.p99Ms, `${serveOne.p99Ms} vs ${talkbackOne.p99Ms} ms`]);
    target('replay of 10 recordings ≥ 1.0× talkback with 10 tapes', [L['replay-10'], L['talkback-10']], () => [L['replay-10'].rps >= L['talkback-10'].rps, `${ratio(L['replay-10'].rps, L['talkback-10'].rps)}× (${cpuRatio(L['replay-10'], L['talkback-10'])})`]);
    target(`replay of ${BIG} recordings ≥ 1.0× talkback with 10 tapes`, [replayBigCase, L['talkback-10']], () => [replayBigCase.rps >= L['talkback-10'].rps, `${ratio(replayBigCase.rps, L['talkback-10'].rps)}× (${cpuRatio(replayBigCase, L['talkback-10'])})`]);
    target('cold start of serve ≤ talkback', [C.serve, C['talkback-10']], () => [C.serve.ms <= C['talkback-10'].ms, `${C.serve.ms} vs ${C['talkback-10'].ms} ms`]);
    target('cold start of replay with 10 recordings ≤ talkback', [C['replay-10'], C['talkback-10']], () => [C['replay-10'].ms <= C['talkback-10'].ms, `${C['replay-10'].ms} vs ${C['talkback-10'].ms} ms`]);
    target(`replay of ${BIG} recordings ready (first answer) ≤ 3 s`, [results.fixtures.replayBigReadySeconds], () => [results.fixtures.replayBigReadySeconds <= 3, `${results.fixtures.replayBigReadySeconds.toFixed(2)} s`]);
    target('serve RSS ≤ talkback + 10 MB', [serveOne?.rssMb, talkbackOne?.rssMb], () => [serveOne.rssMb <= talkbackOne.rssMb + 10, `${serveOne.rssMb} vs ${talkbackOne.rssMb} MB`]);
    target('replay of 10 RSS ≤ talkback with 10 tapes + 10 MB', [L['replay-10']?.rssMb, L['talkback-10']?.rssMb], () => [L['replay-10'].rssMb <= L['talkback-10'].rssMb + 10, `${L['replay-10'].rssMb} vs ${L['talkback-10'].rssMb} MB`]);
    target('50 scenarios within 10% of 1 scenario', [L['serve-50'], L.serve], () => [L['serve-50'].rps >= 0.9 * L.serve.rps, `${ratio(L['serve-50'].rps, L.serve.rps)}× (${cpuRatio(L['serve-50'], L.serve)})`]);
    target(`${BIG} recordings within 10% of 10`, [replayBigCase, L['replay-10']], () => [replayBigCase.rps >= 0.9 * L['replay-10'].rps, `${ratio(replayBigCase.rps, L['replay-10'].rps)}× (${cpuRatio(replayBigCase, L['replay-10'])})`]);
    target('serve RSS < 150 MB (first benchmark)', [L.serve?.rssMb], () => [L.serve.rssMb < 150 && (L['serve-50']?.rssMb ?? 0) < 150, `${L.serve.rssMb} MB${L['serve-50'] ? ` (50 scenarios: ${L['serve-50'].rssMb} MB)` : ''}`]);
    target(`replay of ${BIG} RSS < 400 MB (first benchmark)`, [replayBigCase?.rssMb], () => [replayBigCase.rssMb < 400, `${replayBigCase.rssMb} MB`]);
    target('in-process ≤ 1.2× one hand-written handler (first benchmark)', [results.inProcess.ratio], () => [results.inProcess.ratio <= 1.2, `${results.inProcess.ratio.toFixed(2)}× (median of ${results.inProcess.quads} interleaved ABBA quads, quartiles ${results.inProcess.ratioQuartiles.join('-')}; of totals ${results.inProcess.ratioOfTotals.toFixed(2)}×)`]);
    target('recording proxy < 1 ms added at p50 (first benchmark)', [results.record.addedP50Ms], () => [results.record.addedP50Ms < 1, `+${results.record.addedP50Ms} ms`]);
    results.durationSeconds = Math.round((Date.now() - started) / 1000);
    results.machine.loadAverageAtEnd = loadavg()[0];
    if (QUICK) results.notes.push('A quick run (BENCH_QUICK=1): 1-second rounds, one round, fewer cases; it checks that everything starts and answers. Its figures are not the benchmark.');
    if (Math.max(results.machine.loadAverageAtStart, results.machine.loadAverageAtEnd) > 1.5) results.notes.push('Other processes loaded the machine during the run (1-minute load average above 1.5): absolute figures are noisy; compare the ratios.');

    mkdirSync(RESULTS, { recursive: true });
    results.quick = QUICK;
    if (ONLY_CASES) results.onlyCases = ONLY_CASES;
    // A run of some cases only (BENCH_CASES) is not a full run: it leaves latest.json and previous.json alone.
    const full = !QUICK && !ONLY_CASES;
    const resultsFile = QUICK ? 'quick.json' : full ? 'latest.json' : 'cases.json';
    // A full run keeps the one before it as previous.json, and says whether it repeats it (same day).
    const { repeatLines } = await import('./repeat.mjs');
    const previousFile = join(RESULTS, 'latest.json');
    const previous = full && existsSync(previousFile) ? JSON.parse(readFileSync(previousFile, 'utf8')) : null;
    if (previous) writeFileSync(join(RESULTS, 'previous.json'), `${JSON.stringify(previous, null, 2)}\n`);
    const repeat = repeatLines(results, previous);
    writeFileSync(join(RESULTS, resultsFile), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\n${formatTable(results)}\n${repeat.length ? `\n${repeat.join('\n')}\n` : ''}\nWritten to bench/results/${resultsFile} (${results.durationSeconds} s).\n`);
  } finally {
    killServers();
    agent.destroy();
    for (const path of temps) rmSync(path, { recursive: true, force: true });
  }
}

/** Self time per function (top 15) of a V8 .cpuprofile, and the share of time in msw, express and mockvideo code. */
function summariseProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const frames = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    const url = callFrame.url.replace(/^file:\/\//, '').replace(ROOT, '');
    const name = `${callFrame.functionName || '(anonymous)'} ${url ? `${url}:${callFrame.lineNumber + 1}` : ''}`.trim();
    frames.set(name, (frames.get(name) ?? 0) + us);
    const area = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url)?.[1] ?? (url.startsWith('dist/') || url.startsWith('/dist/') ? 'mockvideo (dist/)' : url.startsWith('node:') ? 'node core' : url ? 'other' : callFrame.functionName || 'native');
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const share = (us) => Math.round((us / total) * 1000) / 10;
  return {
    totalMs: Math.round(total / 1000),
    top: [...frames].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([frame, us]) => ({ frame, selfPercent: share(us) })),
    areas: [...areas].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([area, us]) => ({ area, selfPercent: share(us) })),
  };
}

function formatTable(results) {
  const L = results.load;
  const lines = [];
  const row = (cells) => `| ${cells.join(' | ')} |`;
  const times = (value) => (value === null || value === undefined ? '–' : `${value.toFixed(2)}×`);
  const loadTable = (title, names) => {
    lines.push(row([title, 'req/s', '÷ talkback', '÷ node:http', 'p50 ms', 'p99 ms', 'CPU µs/request', 'RSS MB', 'non-2xx']));
    lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
    for (const name of names) {
      const r = L[name];
      lines.push(row([`${name} (${r.what})`, r.rps, times(r.vsTalkback), times(r.vsNode), r.p50Ms, r.p99Ms, r.cpuUsPerRequest, r.rssMb, r.non2xx + r.errors]));
    }
  };
  const names = Object.keys(L);
  loadTable('Same request for everyone: meta/setting, 27 parameters', names.filter((name) => name.endsWith('-setting')));
  lines.push('');
  loadTable('Requests rotating over the operations', names.filter((name) => !name.endsWith('-setting')));
  const c = results.coldStart;
  const talkbackCold = c['talkback-10']?.ms;
  lines.push('', row(['Cold start (spawn → first 200, median)', 'ms', '÷ talkback']), row(['---', '---:', '---:']));
  for (const [name, entry] of Object.entries(c)) lines.push(row([`${name} (${entry.what})`, entry.ms, times(talkbackCold ? entry.ms / talkbackCold : null)]));
  const p = results.inProcess;
  lines.push('', row(['In-process (msw getResponse, meta/setting)', 'CPU µs/request', 'requests/CPU s']), row(['---', '---:', '---:']));
  lines.push(row([`createHandlers() (${p.handlers} handlers)`, p.mockvideoUs, p.mockvideoPerSecond]), row(['one hand-written http.get', p.handWrittenUs, p.handWrittenPerSecond]), row([`ratio: median of ${p.quads} interleaved ABBA quads (quartiles ${p.ratioQuartiles.join('-')}; of the totals above ${p.ratioOfTotals.toFixed(2)}×)`, `${p.ratio.toFixed(2)}×`, '']));
  const r = results.record;
  lines.push('', row(['Recording proxy (sequential)', 'p50 ms', 'p99 ms']), row(['---', '---:', '---:']));
  lines.push(row(['upstream directly', r.directP50Ms, r.directP99Ms]), row(['through `mockvideo record`', r.proxyP50Ms, r.proxyP99Ms]), row(['added', r.addedP50Ms, r.addedP99Ms]));
  lines.push('', 'Targets:');
  for (const t of results.targets) lines.push(`  ${(t.met === null ? '– not measured' : t.met ? '✓ met' : '✗ NOT MET').padEnd(15)} ${t.name}: ${t.detail}`);
  if (results.profile?.top) {
    lines.push('', `Profile of serve under load (${results.profile.file}), self time:`);
    lines.push(`  by package: ${results.profile.areas.map((a) => `${a.area} ${a.selfPercent}%`).join(', ')}`);
    for (const f of results.profile.top) lines.push(`  ${String(f.selfPercent).padStart(5)}%  ${f.frame}`);
  }
  const s = results.settings;
  lines.push('', `Machine: ${results.machine.cpus} × ${results.machine.cpu}, Node ${results.machine.node}, ${results.machine.pinned ? 'pinned with taskset' : 'not pinned (no taskset)'}; load average ${results.machine.loadAverageAtStart.toFixed(1)} at start, ${results.machine.loadAverageAtEnd.toFixed(1)} at end.`);
  lines.push(`References: talkback ${results.references.talkback}, Express ${results.references.express}. Load: autocannon, ${s.connections} connections, median of ${s.runs} interleaved ${s.seconds}-s rounds (taken in turn by ${s.processes ?? 1} process(es) of each server) after ${s.warmup} s of warm-up per case and process; cold starts: median of ${s.coldStarts}.`);
  for (const note of results.notes) lines.push(note);
  lines.push('', `Fixtures: ${results.fixtures.recordings} recordings written in ${results.fixtures.recordingsWriteSeconds} s; replay of them listening after ${results.fixtures.replayBigStartSeconds.toFixed(2)} s, first answer after ${results.fixtures.replayBigReadySeconds.toFixed(2)} s.`);
  return lines.join('\n');
}
