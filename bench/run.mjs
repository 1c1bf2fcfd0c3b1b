// `npm run bench`: measures mockvideo against a bare Express 5 route serving the same bytes, in one
// run, and prints req/s, p50/p99 latency, the server's CPU time per request, RSS and the ratios; writes them to bench/results/latest.json.
//
// Servers under test run as child processes pinned to core 0 (`taskset -c 0`), the load comes from
// this process pinned to core 1. Knobs (environment):
//   BENCH_SECONDS=5        duration of one measured load run
//   BENCH_RUNS=3           measured runs per case, interleaved across cases; the median is reported
//   BENCH_WARMUP=1         seconds of load before the first measured run of each server
//   BENCH_CONNECTIONS=50   concurrent connections
//   BENCH_RECORDINGS=100000  size of the large recording set
//   BENCH_COLD_STARTS=5    spawns per server for the cold start median
//   BENCH_RECORD_REQUESTS=1000  sequential requests per side for the recording proxy's added latency
//   BENCH_INPROC_SECONDS=2 duration of one in-process measurement
//   BENCH_PROFILE=1        also run the serve case once under `node --cpu-prof` and list the top frames (0: skip)
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'mockvideo.js');
const BASELINE = join(ROOT, 'bench', 'baseline-express.mjs');
const RESULTS = join(ROOT, 'bench', 'results');
const TASKSET = spawnSync('taskset', ['--version']).status === 0 && cpus().length >= 2;
// Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux).
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

// Re-run this script pinned to core 1, so the load never shares a core with the server.
if (TASKSET && !process.env.BENCH_PINNED) {
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

function env(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) ? value : fallback;
}

async function main() {
  const { default: autocannon } = await import('autocannon');
  const fixtures = await import('./fixtures.mjs');
  const SECONDS = env('BENCH_SECONDS', 5);
  const RUNS = env('BENCH_RUNS', 3);
  const WARMUP = env('BENCH_WARMUP', 1);
  const CONNECTIONS = env('BENCH_CONNECTIONS', 50);
  const BIG = env('BENCH_RECORDINGS', 100_000);
  const COLD = env('BENCH_COLD_STARTS', 5);
  const RECORD_REQUESTS = env('BENCH_RECORD_REQUESTS', 1000);
  const INPROC_SECONDS = env('BENCH_INPROC_SECONDS', 2);
  const PROFILE = env('BENCH_PROFILE', 1) !== 0;
  const started = Date.now();
  const children = new Set();
  const temps = [];
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
  };
  process.on('exit', killAll);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  const log = (line) => process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

  /** Spawns `node ARGS` pinned to core 0; resolves once its output shows an http URL. Output goes to a file (no pipe to drain). */
  function startServer(name, args, { timeoutMs = 30_000, nodeArgs = [] } = {}) {
    const outFile = join(tmpdir(), `mockvideo-bench-${name}-${process.pid}-${Date.now()}.log`);
    temps.push(outFile);
    const fd = openSync(outFile, 'w');
    const command = TASKSET ? 'taskset' : process.execPath;
    const argv = TASKSET ? ['-c', '0', process.execPath, ...nodeArgs, ...args] : [...nodeArgs, ...args];
    const t0 = process.hrtime.bigint();
    const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', fd, fd], env: { ...process.env, NO_COLOR: '1' } });
    closeSync(fd);
    children.add(child);
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => (children.delete(child), resolve(code ?? signal))));
    return new Promise((resolve, reject) => {
      const until = Date.now() + timeoutMs;
      const poll = setInterval(() => {
        const text = readFileSync(outFile, 'utf8');
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
        if (m) {
          clearInterval(poll);
          resolve({ name, child, url: m[0], t0, output: () => readFileSync(outFile, 'utf8'), stop: async () => (child.kill('SIGTERM'), setTimeout(() => child.kill('SIGKILL'), 5000).unref(), await exited) });
        } else if (child.exitCode !== null || Date.now() > until) {
          clearInterval(poll);
          child.kill('SIGKILL');
          reject(new Error(`${name} did not start (${child.exitCode !== null ? `exit ${child.exitCode}` : 'timeout'}):\n${text.slice(-2000)}`));
        }
      }, 5);
    });
  }

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
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, pinned: TASKSET, loadAverageAtStart: loadavg()[0] },
    settings: { seconds: SECONDS, runs: RUNS, warmup: WARMUP, connections: CONNECTIONS, recordings: BIG, coldStarts: COLD, recordRequests: RECORD_REQUESTS, inProcessSeconds: INPROC_SECONDS },
    load: {},
    coldStart: {},
    inProcess: {},
    record: {},
    targets: [],
    notes: [],
  };

  try {
    // 1. mockvideo serve, and its answers: the baseline sends exactly these bytes.
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

    log('starting the bare Express 5 baseline');
    const baseline = await startServer('baseline', [BASELINE, bodiesFile]);
    for (const path of sixPaths) {
      const [a, b] = await Promise.all([get(`${serve.url}${path}`), get(`${baseline.url}${path}`)]);
      if (!a.body.equals(b.body)) throw new Error(`The baseline's body differs from mockvideo's for ${path}.`);
    }

    // 2. Fixtures: 50 scenarios, recordings of 10 and BIG exchanges.
    const fifty = fixtures.writeScenarios(50);
    temps.push(fifty.dir);
    let t = Date.now();
    const small = fixtures.writeRecordings(10, bodyText);
    temps.push(small.dir);
    const big = fixtures.writeRecordings(BIG, bodyText);
    temps.push(big.dir);
    results.fixtures = { recordingsWriteSeconds: (Date.now() - t) / 1000, recordings: BIG };
    log(`wrote 50 scenarios and recording sets of 10 and ${BIG} in ${results.fixtures.recordingsWriteSeconds} s`);

    log('starting mockvideo serve with 50 scenarios, replay of 10 and of the large set');
    const serve50 = await startServer('serve-50', [BIN, 'serve', '--port', '0', '--scenarios-dir', fifty.dir]);
    const replay10 = await startServer('replay-10', [BIN, 'replay', small.dir, '--port', '0']);
    t = Date.now();
    const replayBig = await startServer('replay-big', [BIN, 'replay', big.dir, '--port', '0'], { timeoutMs: 300_000 });
    results.fixtures.replayBigStartSeconds = (Date.now() - t) / 1000;
    log(`replay of ${BIG} recordings listening after ${results.fixtures.replayBigStartSeconds} s`);

    const fiftyPaths = fifty.names.flatMap((name) => fixtures.OPERATION_NAMES.map((op) => fixtures.clientPath(op, '0', `/scenarios/${name}`)));
    const tenPaths = Array.from({ length: 10 }, (_, i) => fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i)));
    const bigStride = Math.max(1, Math.floor(BIG / 300));
    const bigPaths = Array.from({ length: Math.min(300, BIG) }, (_, k) => k * bigStride).map((i) => fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i)));
    const settingPath = [fixtures.clientPath('meta/setting')];
    for (const [server, paths] of [[serve50, fiftyPaths], [replay10, tenPaths], [replayBig, bigPaths]]) {
      for (const path of [paths[0], paths[paths.length - 1]]) {
        const answer = await get(`${server.url}${path}`);
        if (answer.status !== 200) throw new Error(`${server.name} answered ${answer.status} to ${path}: ${answer.body.toString().slice(0, 500)}`);
        if (server !== serve50 && answer.headers['x-mockvideo-match'] !== 'exact') throw new Error(`${server.name} matched ${answer.headers['x-mockvideo-match']} for ${path}`);
      }
    }

    const cases = [
      { name: 'baseline', what: 'bare Express 5, six routes, same bytes', server: baseline, paths: sixPaths },
      { name: 'serve', what: 'mockvideo serve, default scenario, six operations', server: serve, paths: sixPaths },
      { name: 'serve-50', what: 'serve, 50 scenarios, /scenarios/<name> prefixes', server: serve50, paths: fiftyPaths },
      { name: 'replay-10', what: 'replay, 10 recordings', server: replay10, paths: tenPaths },
      { name: `replay-${BIG}`, what: `replay, ${BIG} recordings`, server: replayBig, paths: bigPaths },
      { name: 'baseline-setting', what: 'bare Express 5, meta/setting only', server: baseline, paths: settingPath },
      { name: 'serve-setting', what: 'mockvideo serve, meta/setting only', server: serve, paths: settingPath },
    ];
    if (WARMUP > 0) {
      log(`warm-up ${WARMUP} s per case`);
      for (const c of cases) await load(c.server.url, c.paths, WARMUP);
    }
    const runs = Object.fromEntries(cases.map((c) => [c.name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const c of cases) {
        const cpu0 = cpuMs(c.server.child.pid);
        const r = await load(c.server.url, c.paths, SECONDS);
        const cpuUs = r.requests.total ? ((cpuMs(c.server.child.pid) - cpu0) * 1000) / r.requests.total : null;
        runs[c.name].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs, non2xx: r.non2xx, errors: r.errors + r.timeouts });
        log(`run ${run + 1}/${RUNS} ${c.name.padEnd(18)} ${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ${cpuUs?.toFixed(0)} µs CPU/request${r.non2xx || r.errors ? `  non-2xx ${r.non2xx} errors ${r.errors}` : ''}`);
      }
    }
    for (const c of cases) {
      const rs = runs[c.name];
      results.load[c.name] = {
        what: c.what,
        rps: Math.round(median(rs.map((r) => r.rps))),
        p50Ms: median(rs.map((r) => r.p50)),
        p99Ms: median(rs.map((r) => r.p99)),
        cpuUsPerRequest: Math.round(median(rs.map((r) => r.cpuUs)) ?? NaN),
        non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
        errors: rs.reduce((s, r) => s + r.errors, 0),
        ...(() => {
          const m = rssMb(c.server.child.pid);
          return { rssMb: m.rss, peakRssMb: m.peak };
        })(),
        runs: rs,
      };
    }

    // 3. Recording proxy: added latency over calling the upstream (the baseline) directly, one request at a time.
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

    for (const server of [serve50, replay10, replayBig]) await server.stop();

    // 4. Cold start: spawn to first 200 of meta/setting, interleaved.
    log(`cold start: ${COLD} spawns each`);
    const cold = { mockvideo: [], baseline: [] };
    const coldStart = async (name, args) => {
      const server = await startServer(`cold-${name}`, args);
      const coldAgent = new http.Agent({ keepAlive: false });
      for (;;) {
        const answer = await get(`${server.url}${settingPath[0]}`, coldAgent).catch(() => null);
        if (answer?.status === 200) break;
      }
      const ms = Number(process.hrtime.bigint() - server.t0) / 1e6;
      await server.stop();
      return ms;
    };
    for (let i = 0; i < COLD; i++) {
      cold.mockvideo.push(await coldStart('mockvideo', [BIN, 'serve', '--port', '0']));
      cold.baseline.push(await coldStart('baseline', [BASELINE, bodiesFile]));
    }
    results.coldStart = { mockvideoMs: Math.round(median(cold.mockvideo)), baselineMs: Math.round(median(cold.baseline)), runs: cold };
    log(`cold start: mockvideo ${results.coldStart.mockvideoMs} ms, baseline ${results.coldStart.baselineMs} ms`);

    // 5. In-process: msw getResponse over createHandlers() against one hand-written handler.
    log('in-process: getResponse(createHandlers()) vs one hand-written http.get handler');
    const msw = await import('msw');
    const { createHandlers } = await import('../dist/index.js');
    const ours = createHandlers();
    const settingBody = bodyText['meta/setting'];
    const handWritten = [msw.http.get('*/api/g1/meta/setting', () => new msw.HttpResponse(settingBody, { headers: { 'content-type': 'application/json; charset=utf-8' } }))];
    const requestUrl = `http://127.0.0.1${settingPath[0]}`;
    const once = async (handlers) => {
      const response = await msw.getResponse(handlers, new Request(requestUrl));
      if (!response || response.status !== 200) throw new Error('in-process: no 200');
      await response.arrayBuffer();
    };
    // Requests per second of this process's CPU time (user + system), not of the wall clock: on a
    // shared machine the wall clock counts time the process did not run.
    const rate = async (handlers) => {
      const until = performance.now() + INPROC_SECONDS * 1000;
      let n = 0;
      const cpu = process.cpuUsage();
      while (performance.now() < until) {
        for (let i = 0; i < 100; i++) await once(handlers);
        n += 100;
      }
      const used = process.cpuUsage(cpu);
      return n / ((used.user + used.system) / 1e6);
    };
    for (let i = 0; i < 200; i++) {
      await once(ours);
      await once(handWritten);
    }
    const inproc = { mockvideo: [], handWritten: [] };
    // At least 5 interleaved pairs, so one disturbed measurement does not decide the median.
    for (let run = 0; run < Math.max(RUNS, 5); run++) {
      inproc.mockvideo.push(await rate(ours));
      inproc.handWritten.push(await rate(handWritten));
    }
    const oursRate = median(inproc.mockvideo);
    const handRate = median(inproc.handWritten);
    results.inProcess = { mockvideoPerSecond: Math.round(oursRate), handWrittenPerSecond: Math.round(handRate), mockvideoUs: round3(1e6 / oursRate), handWrittenUs: round3(1e6 / handRate), handlers: ours.length };
    log(`in-process: ${results.inProcess.mockvideoUs} µs vs ${results.inProcess.handWrittenUs} µs per request`);

    // 6. Profile of the serve case (optional).
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

    // 7. Ratios and targets.
    const L = results.load;
    const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);
    const target = (name, met, detail) => results.targets.push({ name, met, detail });
    // The CPU time per request, the steadier figure on a shared machine, is shown beside each req/s ratio.
    const cpuRatio = (a, b) => `CPU per request ${ratio(a.cpuUsPerRequest, b.cpuUsPerRequest)}×`;
    target('serve ≥ 1.0× bare Express req/s', L.serve.rps >= L.baseline.rps, `${ratio(L.serve.rps, L.baseline.rps)}× (${cpuRatio(L.serve, L.baseline)})`);
    target('serve p99 no worse than bare Express', L.serve.p99Ms <= L.baseline.p99Ms, `${L.serve.p99Ms} ms vs ${L.baseline.p99Ms} ms`);
    target('50 scenarios within 10% of 1 scenario', L['serve-50'].rps >= 0.9 * L.serve.rps, `${ratio(L['serve-50'].rps, L.serve.rps)}× (${cpuRatio(L['serve-50'], L.serve)})`);
    target(`${BIG} recordings within 10% of 10`, L[`replay-${BIG}`].rps >= 0.9 * L['replay-10'].rps, `${ratio(L[`replay-${BIG}`].rps, L['replay-10'].rps)}× (${cpuRatio(L[`replay-${BIG}`], L['replay-10'])})`);
    target('cold start ≤ 1.5× bare Express', results.coldStart.mockvideoMs <= 1.5 * results.coldStart.baselineMs, `${ratio(results.coldStart.mockvideoMs, results.coldStart.baselineMs)}×`);
    target('serve RSS < 150 MB', L.serve.rssMb < 150 && L['serve-50'].rssMb < 150, `${L.serve.rssMb} MB (50 scenarios: ${L['serve-50'].rssMb} MB)`);
    target(`replay of ${BIG} RSS < 400 MB`, L[`replay-${BIG}`].rssMb < 400, `${L[`replay-${BIG}`].rssMb} MB`);
    target('in-process ≤ 1.2× one hand-written handler', results.inProcess.mockvideoUs <= 1.2 * results.inProcess.handWrittenUs, `${ratio(results.inProcess.mockvideoUs, results.inProcess.handWrittenUs)}×`);
    target('recording proxy < 1 ms added at p50', results.record.addedP50Ms < 1, `+${results.record.addedP50Ms} ms`);
    results.durationSeconds = Math.round((Date.now() - started) / 1000);
    results.machine.loadAverageAtEnd = loadavg()[0];
    if (Math.max(results.machine.loadAverageAtStart, results.machine.loadAverageAtEnd) > 1.5) results.notes.push('Other processes loaded the machine during the run (1-minute load average above 1.5): absolute figures are noisy; compare the ratios.');

    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\n${formatTable(results)}\n\nWritten to bench/results/latest.json (${results.durationSeconds} s).\n`);
  } finally {
    killAll();
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
  const base = L.baseline;
  const lines = [];
  const row = (cells) => `| ${cells.join(' | ')} |`;
  lines.push(row(['Case', 'req/s', 'vs Express', 'p50 ms', 'p99 ms', 'CPU µs/request', 'RSS MB', 'non-2xx']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const [name, r] of Object.entries(L)) {
    const reference = name.endsWith('-setting') ? L['baseline-setting'] : base;
    lines.push(row([`${name} (${r.what})`, r.rps, `${(r.rps / reference.rps).toFixed(2)}×`, r.p50Ms, r.p99Ms, r.cpuUsPerRequest, r.rssMb, r.non2xx + r.errors]));
  }
  const c = results.coldStart;
  lines.push('', row(['Cold start (spawn → first 200, median)', 'mockvideo', 'bare Express', 'ratio']), row(['---', '---:', '---:', '---:']));
  lines.push(row(['`serve` vs baseline', `${c.mockvideoMs} ms`, `${c.baselineMs} ms`, `${(c.mockvideoMs / c.baselineMs).toFixed(2)}×`]));
  const p = results.inProcess;
  lines.push('', row(['In-process (msw getResponse, meta/setting)', 'CPU µs/request', 'requests/CPU s']), row(['---', '---:', '---:']));
  lines.push(row([`createHandlers() (${p.handlers} handlers)`, p.mockvideoUs, p.mockvideoPerSecond]), row(['one hand-written http.get', p.handWrittenUs, p.handWrittenPerSecond]), row(['ratio', `${(p.mockvideoUs / p.handWrittenUs).toFixed(2)}×`, '']));
  const r = results.record;
  lines.push('', row(['Recording proxy (sequential)', 'p50 ms', 'p99 ms']), row(['---', '---:', '---:']));
  lines.push(row(['upstream directly', r.directP50Ms, r.directP99Ms]), row(['through `mockvideo record`', r.proxyP50Ms, r.proxyP99Ms]), row(['added', r.addedP50Ms, r.addedP99Ms]));
  lines.push('', row(['Target', 'Met', 'Measured']), row(['---', '---', '---']));
  for (const t of results.targets) lines.push(row([t.name, t.met ? 'yes' : '**no**', t.detail]));
  if (results.profile?.top) {
    lines.push('', `Profile of serve under load (${results.profile.file}), self time:`);
    lines.push(`  by package: ${results.profile.areas.map((a) => `${a.area} ${a.selfPercent}%`).join(', ')}`);
    for (const f of results.profile.top) lines.push(`  ${String(f.selfPercent).padStart(5)}%  ${f.frame}`);
  }
  lines.push('', `Machine: ${results.machine.cpus} × ${results.machine.cpu}, Node ${results.machine.node}, ${results.machine.pinned ? 'pinned with taskset' : 'not pinned (no taskset)'}; load average ${results.machine.loadAverageAtStart.toFixed(1)} at start, ${results.machine.loadAverageAtEnd.toFixed(1)} at end.`);
  for (const note of results.notes) lines.push(note);
  lines.push('', `Fixtures: ${results.fixtures.recordings} recordings written in ${results.fixtures.recordingsWriteSeconds} s; replay of them listening after ${results.fixtures.replayBigStartSeconds} s.`);
  return lines.join('\n');
}
