// A quick side-by-side of two builds of mockvideo, for tuning (not `npm run bench`): the bare
// node:http reference, then `serve` (meta/setting with the 27 common parameters) and `replay` of 10
// recordings for each build folder given (each a checkout with `dist/` built, `bin/`, `bench/`),
// interleaved rounds of autocannon (-c 50) pinned to core 1, servers to core 0; prints medians of
// req/s, p99 and the server's CPU µs per request, each as a ratio to node:http. Usage:
//   node bench/ab.mjs BASE_BUILD_DIR THIS_BUILD_DIR     (env: ROUNDS=3, DUR=3 seconds, ONLY=regexp of case names)
// e.g. git archive main | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && npm run build)
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { killServers, startServer } from './spawn.mjs';
const roots = process.argv.slice(2);
const BODIES = join(tmpdir(), `mockvideo-ab-bodies-${process.pid}.json`);
const DUR = Number(process.env.DUR ?? 3), ROUNDS = Number(process.env.ROUNDS ?? 3);
const fixtures = await import(join(roots[0], 'bench/fixtures.mjs'));
const { default: autocannon } = await import(new URL('../node_modules/autocannon/autocannon.js', import.meta.url).href);
process.on('exit', killServers);
const start = async (name, args) => { const server = await startServer(name, args); return { ...server, startMs: Number(process.hrtime.bigint() - server.t0) / 1e6 }; };
const get = (url) => new Promise((res, rej) => http.get(url, (r) => { const c = []; r.on('data', (d) => c.push(d)); r.on('end', () => res({ status: r.statusCode, headers: r.headers, body: Buffer.concat(c) })); }).on('error', rej));
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const setting = fixtures.clientPath('meta/setting');
const ten = Array.from({ length: 10 }, (_, i) => fixtures.clientPath(fixtures.OPERATION_NAMES[i % 6], String(i)));
const cases = [];
let small;
for (const [i, root] of roots.entries()) {
  const BIN = join(root, 'bin/mockvideo.js');
  const serve = await start(`serve${i}`, [BIN, 'serve', '--port', '0']);
  if (i === 0) {
    const bodies = {}, text = {};
    for (const op of fixtures.OPERATION_NAMES) { const a = await get(serve.url + fixtures.clientPath(op)); bodies[`/api/g1/${op}`] = { contentType: a.headers['content-type'], body: a.body.toString() }; text[op] = a.body.toString(); }
    writeFileSync(BODIES, JSON.stringify(bodies));
    cases.push(['node', await start('node', [fileURLToPath(new URL('baseline-node.mjs', import.meta.url)), BODIES]), [setting]]);
    small = fixtures.writeRecordings(10, text);
  }
  const replay = await start(`replay${i}`, [BIN, 'replay', small.dir, '--port', '0']);
  const a = await get(replay.url + ten[0]); if (a.status !== 200) throw new Error('replay ' + a.status);
  console.log(`root ${i} start ms: serve ${serve.startMs.toFixed(0)} replay10 ${replay.startMs.toFixed(0)}`);
  cases.push([`serve${i}`, serve, [setting]], [`replay${i}`, replay, ten]);
}
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null; const res = {};
for (let r = 0; r < ROUNDS; r++) for (const [name, s, paths] of cases) { if (only && !only.test(name)) continue;
  const c0 = cpuMs(s.child.pid);
  const out = await autocannon({ url: s.url, connections: 50, duration: DUR, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  (res[name] ??= []).push({ rps: out.requests.average, p99: out.latency.p99, us: ((cpuMs(s.child.pid) - c0) * 1000) / out.requests.total, non2xx: out.non2xx });
}
const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const nodeRps = med(res.node.map((x) => x.rps)), nodeUs = med(res.node.map((x) => x.us));
for (const [name, s] of cases) { const rs = res[name]; if (!rs) continue; const rps = med(rs.map((x) => x.rps)), us = med(rs.map((x) => x.us)); console.log(`${name.padEnd(9)} rps ${rps.toFixed(0).padStart(6)} (${(rps / nodeRps).toFixed(2)}x node) p99 ${med(rs.map((x) => x.p99))} cpu ${us.toFixed(1)} us/req (${(us / nodeUs).toFixed(2)}x node) [${rs.map((x) => x.us.toFixed(1)).join(' ')}] rss ${rss(s.child.pid).toFixed(0)} MB${rs.some((x) => x.non2xx) ? ' NON2XX' : ''}`); }
killServers();
rmSync(small.dir, { recursive: true, force: true });
rmSync(BODIES, { force: true });
