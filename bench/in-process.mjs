// The in-process case of `npm run bench`, in a process of its own (bench/run.mjs spawns it): msw's
// getResponse over createHandlers() against one hand-written msw handler sending the same bytes,
// for the same request. Rates are requests per second of this process's CPU time (user + system),
// not of the wall clock; the two are measured in interleaved rounds and the medians compared.
// Usage: node bench/in-process.mjs PATH BODIES_FILE SECONDS ROUNDS   (BODIES_FILE: as bench/run.mjs
// writes it, { "/api/g1/meta/setting": { contentType, body } }). Prints the result as JSON.
import { readFileSync } from 'node:fs';

const [path, bodiesFile, seconds, rounds] = process.argv.slice(2);
const msw = await import('msw');
const { createHandlers } = await import('../dist/index.js');
const { contentType, body } = JSON.parse(readFileSync(bodiesFile, 'utf8'))[path.split('?')[0]];
const ours = createHandlers();
const handWritten = [msw.http.get(`*${path.split('?')[0]}`, () => new msw.HttpResponse(body, { headers: { 'content-type': contentType } }))];
const requestUrl = `http://127.0.0.1${path}`;

async function once(handlers) {
  const response = await msw.getResponse(handlers, new Request(requestUrl));
  if (!response || response.status !== 200) throw new Error('in-process: no 200');
  await response.arrayBuffer();
}

/** Requests per second of CPU time over `seconds` of wall clock. */
async function rate(handlers) {
  const until = performance.now() + Number(seconds) * 1000;
  let n = 0;
  const cpu = process.cpuUsage();
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) await once(handlers);
    n += 100;
  }
  const used = process.cpuUsage(cpu);
  return n / ((used.user + used.system) / 1e6);
}

for (let i = 0; i < 200; i++) {
  await once(ours);
  await once(handWritten);
}
const mockvideo = [];
const hand = [];
for (let round = 0; round < Number(rounds); round++) {
  mockvideo.push(await rate(ours));
  hand.push(await rate(handWritten));
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round3 = (v) => Math.round(v * 1000) / 1000;
const oursRate = median(mockvideo);
const handRate = median(hand);
process.stdout.write(
  JSON.stringify({ mockvideoPerSecond: Math.round(oursRate), handWrittenPerSecond: Math.round(handRate), mockvideoUs: round3(1e6 / oursRate), handWrittenUs: round3(1e6 / handRate), handlers: ours.length }),
);
