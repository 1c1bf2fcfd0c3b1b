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
// Each row also gives the server's CPU per request (µs), which others' load moves much less than req/s.
// Knobs (environment): FAULTS_SECONDS=5 (each round), FAULTS_CONNECTIONS=20, FAULTS_BIN (the
// mockvideo to run, default this checkout's bin/mockvideo.js: another build, to compare before and after),
// FAULTS_AIMED=1 (each of the faults aimed at one device, `"device": "bench<n>"`, as per-device
// steering plans them: the one device of the first load gets none, the many devices 1,000 of them one each).
import { spawnSync } from 'node:child_process';
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
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
const BIN = process.env.FAULTS_BIN ?? join(ROOT, 'bin', 'mockvideo.js');
const AIMED = process.env.FAULTS_AIMED === '1';
const PATH = clientPath('meta/setting');

/** CPU time a process has used, in ms (Linux: utime + stime of /proc/PID/stat). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

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

/** One round of load: req/s, p99 in ms, non-2xx answers, requests in all. */
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
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

const { default: autocannon } = await import('autocannon');
process.on('exit', killServers);
const rows = [];
for (const faults of [0, 1000]) {
  for (const manyDevices of [false, true]) {
    for (const stream of [false, true]) {
      const server = await startServer('faults', [BIN, 'serve', '--port', '0', '--no-watch', '--quiet'], { cwd: ROOT });
      for (let i = 0; i < faults; i++)
        await admin(server.url, 'POST', '/faults', {
          operation: 'meta/setting',
          kind: 'status',
          status: 503,
          times: 1,
          ...(AIMED ? { device: `bench${i}` } : {}),
        });
      const rssBefore = rssMb(server.child.pid);
      const events = stream ? openStream(server.url) : undefined;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid))), 200);
      const cpu0 = cpuMs(server.child.pid);
      const { total, ...figures } = await load(autocannon, server.url, manyDevices);
      // The server's CPU per request: steadier than req/s on a machine others load too.
      figures.cpuUs = Math.round(((cpuMs(server.child.pid) - cpu0) * 1000) / total);
      clearInterval(sampler);
      const streamBytes = events?.stop();
      rows.push({
        faults: AIMED && faults ? `${faults} aimed` : faults,
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
