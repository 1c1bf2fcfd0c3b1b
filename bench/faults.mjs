// `node bench/faults.mjs` (after `npm run build`): `serve` with the documented cap of 1,000 planned
// faults (issue 39, L8), as a user measures it: req/s (autocannon, loopback only, bounded rounds),
// the server's RSS, the bytes a dashboard's event stream receives, and the same with no fault
// planned, each round with and without one event stream open (a reader that reads everything).
//
// The faults are the documented per-device example (docs/device-state.md, "Faults with times"):
// `{"operation": "meta/setting", "kind": "status", "status": 503, "times": 1}`, 1,000 of them, in
// the server's default `--state client`. Two loads: one device (the same `_sdevid` on every
// request: it uses the faults up, then every request finds them used up) and many devices (each
// request names one of 20,000 `_sdevid`s in turn: the per-device counts a server keeps).
// Knobs (environment): FAULTS_SECONDS=5 (each round), FAULTS_CONNECTIONS=20.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientPath } from './fixtures.mjs';
import { killServers, startServer } from './spawn.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.FAULTS_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.FAULTS_CONNECTIONS ?? 20);
const DEVICES = 20_000;
const PATH = clientPath('meta/setting');

/** Resident memory of a process, in MB (Linux). */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** One admin call; resolves with the status. */
function admin(url, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/__mockvideo${path}`, { method, headers: { 'content-type': 'application/json' } });
    req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode)));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Opens `/__mockvideo/events` and reads everything; `stop()` closes it and gives the bytes received. */
function openStream(url) {
  let bytes = 0;
  const req = http.get(`${url}/__mockvideo/events`, (res) => res.on('data', (chunk) => (bytes += chunk.length)));
  req.on('error', () => undefined);
  return { stop: () => (req.destroy(), bytes) };
}

/** One round of load: req/s, p99 in ms, non-2xx answers. */
async function load(autocannon, url, manyDevices) {
  let n = 0;
  const path = (device) => PATH.replace(/_sdevid=[^&]*/, `_sdevid=bench${device}`);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      manyDevices ? { method: 'GET', setupRequest: (req) => ({ ...req, path: path(n++ % DEVICES) }) } : { path: PATH },
    ],
  });
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, non2xx: result.non2xx };
}

const { default: autocannon } = await import('autocannon');
process.on('exit', killServers);
const rows = [];
for (const faults of [0, 1000]) {
  for (const manyDevices of [false, true]) {
    for (const stream of [false, true]) {
      const server = await startServer(
        'faults',
        [join(ROOT, 'bin', 'mockvideo.js'), 'serve', '--port', '0', '--no-watch', '--quiet'],
        { cwd: ROOT },
      );
      for (let i = 0; i < faults; i++)
        await admin(server.url, 'POST', '/faults', {
          operation: 'meta/setting',
          kind: 'status',
          status: 503,
          times: 1,
        });
      const rssBefore = rssMb(server.child.pid);
      const events = stream ? openStream(server.url) : undefined;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid))), 200);
      const figures = await load(autocannon, server.url, manyDevices);
      clearInterval(sampler);
      const streamBytes = events?.stop();
      rows.push({
        faults,
        devices: manyDevices ? DEVICES : 1,
        stream: stream ? 'open' : '-',
        ...figures,
        rssBeforeMb: Math.round(rssBefore),
        rssPeakMb: Math.round(peak),
        streamMb: streamBytes === undefined ? '-' : (streamBytes / 1024 / 1024).toFixed(2),
      });
      console.log(JSON.stringify(rows.at(-1)));
      await server.stop();
    }
  }
}
console.table(rows);
