// The recording proxy's added latency, build against build (for tuning; `npm run bench` measures it
// once for this build): the bench's sequential measurement (keep-alive agent, one request at a time,
// the six client requests in turn, each request to the upstream directly followed by the same one
// through `mockvideo record`), for each build folder given (each a checkout with `dist/` built),
// one recorder at a time, in rounds that alternate the builds. The upstream (bench/baseline-express.mjs
// as in the bench, or bench/baseline-node.mjs with UPSTREAM=node) and the recorder run pinned to
// core 0, this script to core 1. Prints each round and the medians of the added p50 and p99.
//   taskset -c 1 node bench/record-ab.mjs BASE_BUILD_DIR THIS_BUILD_DIR   (env: ROUNDS=3, N=1000, UPSTREAM=express|node)
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killServers, startServer } from './spawn.mjs';

const roots = process.argv.slice(2);
const N = Number(process.env.N ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const fixtures = await import(join(roots[0], 'bench/fixtures.mjs'));
process.on('exit', killServers);
const start = startServer;

function get(url, agent) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const r3 = (v) => Math.round(v * 1000) / 1000;
/** CPU time (user + system) of process `pid` so far, in milliseconds (100 clock ticks a second). */
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

// The answers of mockvideo serve, sent by the upstream as fixed bytes (as the bench does).
const serve = await start('serve', [join(roots[0], 'bin/mockvideo.js'), 'serve', '--port', '0', '--quiet']);
const six = fixtures.OPERATION_NAMES.map((op) => fixtures.clientPath(op));
const bodies = {};
for (const op of fixtures.OPERATION_NAMES) {
  const answer = await get(`${serve.url}${fixtures.clientPath(op)}`);
  bodies[`/api/g1/${op}`] = { contentType: answer.headers['content-type'], body: answer.body.toString('utf8') };
}
await serve.stop();
const bodiesFile = join(tmpdir(), `mockvideo-record-ab-bodies-${process.pid}.json`);
writeFileSync(bodiesFile, JSON.stringify(bodies));
const upstream = await start('upstream', [join(roots[0], 'bench', process.env.UPSTREAM === 'node' ? 'baseline-node.mjs' : 'baseline-express.mjs'), bodiesFile]);

const added = roots.map(() => ({ p50: [], p99: [] }));
for (let round = 1; round <= ROUNDS; round++) {
  for (const [i, root] of roots.entries()) {
    const out = mkdtempSync(join(tmpdir(), 'mockvideo-record-ab-'));
    const recorder = await start('record', [join(root, 'bin/mockvideo.js'), 'record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    const direct = { url: upstream.url, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), ms: [] };
    const proxied = { url: recorder.url, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), ms: [] };
    for (let k = 0; k < 50; k++) for (const side of [direct, proxied]) await get(`${side.url}${six[k % 6]}`, side.agent);
    const cpu0 = cpuMs(recorder.child.pid);
    for (let k = 0; k < N; k++) {
      for (const side of [direct, proxied]) {
        const t = process.hrtime.bigint();
        const answer = await get(`${side.url}${six[k % 6]}`, side.agent);
        side.ms.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (answer.status !== 200) throw new Error(`${side.url} answered ${answer.status}`);
      }
    }
    const cpu = cpuMs(recorder.child.pid) - cpu0;
    await recorder.stop();
    const files = readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.json')).length;
    rmSync(out, { recursive: true, force: true });
    for (const side of [direct, proxied]) side.agent.destroy();
    const a50 = pct(proxied.ms, 50) - pct(direct.ms, 50);
    const a99 = pct(proxied.ms, 99) - pct(direct.ms, 99);
    added[i].p50.push(a50);
    added[i].p99.push(a99);
    console.log(
      `round ${round} ${root}: direct p50 ${r3(pct(direct.ms, 50))} p99 ${r3(pct(direct.ms, 99))}, through record p50 ${r3(pct(proxied.ms, 50))} p99 ${r3(pct(proxied.ms, 99))}: ` +
        `added p50 ${r3(a50)} p99 ${r3(a99)} ms; recorder CPU ${Math.round((cpu / N) * 1000)} µs/request; ${files} recordings`,
    );
  }
}
for (const [i, root] of roots.entries()) console.log(`${root}: median added p50 ${r3(median(added[i].p50))} ms, p99 ${r3(median(added[i].p99))} ms (${ROUNDS} rounds)`);
await upstream.stop();
rmSync(bodiesFile, { force: true });
