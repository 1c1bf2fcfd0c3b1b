// The fast path against the MSW handlers: the same requests, in the same order, through
// (A) msw's getResponse over the scenario handlers, (B) the server with its fast path, over HTTP, and
// (C) the server without it (Express and @mswjs/http-middleware), over HTTP. Status, headers and body
// bytes must be identical; B and C must also journal and log the same.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../src/contract/index.js';
import { parseFaultFlag } from '../../src/faults/index.js';
import { checkScenarios, parseScenario, shippedScenarios, type ScenarioCatalog } from '../../src/scenarios/index.js';
import { contextHandlers } from '../../src/server/context-handlers.js';
import { createServerContext, type ServerContext } from '../../src/server/context.js';
import type { RequestLogEntry } from '../../src/server/request-log.js';
import { startServeServer, type RunningServe } from '../../src/server/serve-server.js';
import { clientPath } from '../support/client.js';
import { minimalScenario } from '../support/minimal-scenario.js';

/** A scenario that uses every feature the fast path must reproduce: sequences, `when`, headers, `{origin}`, faults with a rate. */
function differentialScenario() {
  const base = minimalScenario();
  const ops = base.operations as Record<string, unknown>;
  ops.ad_config = [
    { when: { query: { _region: 'DE' } }, data: { region: 'DE' }, headers: { 'X-Region': '  de  ', 'Cache-Control': 'no-store' } },
    { data: { enabled: true, icon: '{origin}/__mockvideo/media/icon/1.png' }, headers: { 'Content-Type': 'application/json', 'x-a': '1', 'X-A': '2' } },
  ];
  ops['meta/cp'] = { sequence: [ops['meta/cp'], { ...(ops['meta/cp'] as object), status: 500, msg: 'busy', result: 0 }, { fault: { kind: 'malformed-json' } }, { fault: { kind: 'envelope', result: 7 } }] };
  ops['meta/setting'] = { ...(ops['meta/setting'] as object), fault: { kind: 'delay', ms: 15 } };
  ops['meta/plugin'] = { ...(ops['meta/plugin'] as object), fault: { kind: 'status', status: 503, rate: 0.5, seed: 3 } };
  return { ...base, faults: { 'localplay/recomm': { kind: 'empty', rate: 0.3 } } };
}

function differentialCatalog(): ScenarioCatalog {
  const parsed = parseScenario('differential', differentialScenario(), 'differential.json');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const { catalog, problems } = checkScenarios([...shippedScenarios(), parsed.scenario]);
  if (problems.length) throw new Error(JSON.stringify(problems));
  return catalog;
}

interface Exchange {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

/** What a client sees: status, headers without the transport's own, body; `reset` for a connection closed without an answer. */
type Seen = { status: number; headers: Record<string, string>; body: string } | 'reset';

/** Headers HTTP/1.1 framing adds or changes, not part of the answer (msw's Response has none of them). */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function answerHeaders(headers: IncomingHttpHeaders | Headers, drop: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)] as const);
  for (const [name, value] of entries) if (!drop.has(name)) out[name] = value;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** `body` with the server's own origin written `{origin}` again (the two servers listen on different ports). */
function withoutOrigin(body: string, origin: string): string {
  return body.split(origin).join('{origin}');
}

function overHttp(base: string, exchange: Exchange): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${exchange.path}`, { method: exchange.method, headers: exchange.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: answerHeaders(res.headers, TRANSPORT), body: withoutOrigin(Buffer.concat(chunks).toString('utf8'), base) }));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.message === 'socket hang up' ? resolve('reset') : reject(error)));
    req.end();
  });
}

async function throughMsw(context: ServerContext, base: string, exchange: Exchange): Promise<Seen> {
  const response = await getResponse(contextHandlers(context), new Request(`${base}${exchange.path}`, { method: exchange.method, headers: exchange.headers ?? {} }));
  if (!response) throw new Error(`no handler answered ${exchange.path}`);
  if (response.type === 'error') return 'reset';
  return { status: response.status, headers: answerHeaders(response.headers, TRANSPORT), body: exchange.method === 'HEAD' ? '' : withoutOrigin(await response.text(), base) };
}

/** Journal entries without what differs run to run (ids, times, durations). */
function journalOf({ context, running }: RunningServe) {
  return context.journal.exchanges().map((exchange) => {
    const { id: _i, time: _t, durationMs: _d, ...entry } = exchange.entry;
    return { entry, method: exchange.method, path: exchange.path, rawQuery: exchange.rawQuery, responseHeaders: answerHeaders(exchange.responseHeaders as IncomingHttpHeaders, new Set()), responseBody: withoutOrigin(exchange.responseBody, running.url) };
  });
}

const CATALOG = differentialCatalog();
let fast: RunningServe;
let full: RunningServe;
const logs: { fast: RequestLogEntry[]; full: RequestLogEntry[] } = { fast: [], full: [] };
let mswContext: ServerContext;

async function start(fastPath: boolean, log: RequestLogEntry[]): Promise<RunningServe> {
  return startServeServer({ catalog: CATALOG, scenario: 'default', port: 0, host: '127.0.0.1', fastPath, faults: [parseFaultFlag('ad_config=status:502')], onRequest: (entry) => log.push({ ...entry, durationMs: 0 }) });
}

beforeAll(async () => {
  [fast, full] = await Promise.all([start(true, logs.fast), start(false, logs.full)]);
  mswContext = createServerContext({ mode: 'serve', catalog: CATALOG, scenario: 'default', faults: [parseFaultFlag('ad_config=status:502')] });
  // The `--fault` above applies until cleared: the first test checks it, then it goes.
});
afterAll(async () => {
  await Promise.all([fast?.running.close(), full?.running.close()]);
});

/** Sends `exchanges` in order through all three and expects the same; the journals and logs of B and C too. */
async function expectSame(exchanges: readonly Exchange[]): Promise<void> {
  const journalStart = { fast: fast.context.journal.exchanges().length, full: full.context.journal.exchanges().length, logFast: logs.fast.length, logFull: logs.full.length };
  for (const exchange of exchanges) {
    const [viaFast, viaFull, viaMsw] = [await overHttp(fast.running.url, exchange), await overHttp(full.running.url, exchange), await throughMsw(mswContext, fast.running.url, exchange)];
    const label = `${exchange.method} ${exchange.path}`;
    if (viaMsw !== 'reset' && viaFast !== 'reset') {
      // The findings header comes from the host's journal, around the handlers.
      const { 'x-mockvideo-findings': _findings, ...fastHeaders } = viaFast.headers;
      expect({ ...viaFast, headers: fastHeaders }, label).toEqual(viaMsw);
    } else expect(viaFast, label).toEqual(viaMsw);
    expect(viaFast, label).toEqual(viaFull === 'reset' ? 'reset' : { ...viaFull, headers: viaFull.headers });
  }
  // Journal and log entries are added when the exchange ends, which a reset makes asynchronous.
  await new Promise((r) => setTimeout(r, 50));
  expect(journalOf(fast).slice(journalStart.fast)).toEqual(journalOf(full).slice(journalStart.full));
  expect(logs.fast.slice(journalStart.logFast)).toEqual(logs.full.slice(journalStart.logFull));
}

describe('the fast path answers exactly what the MSW handlers answer', () => {
  it('every operation of every shipped scenario, by prefix and by header, GET and HEAD', async () => {
    const exchanges: Exchange[] = [];
    for (const scenario of CATALOG.names.filter((n) => !['slow-network', 'connection-reset', 'flaky'].includes(n))) {
      for (const operation of OPERATION_NAMES) {
        exchanges.push({ method: 'GET', path: `/scenarios/${scenario}${clientPath(operation)}` });
        exchanges.push({ method: 'GET', path: clientPath(operation), headers: { 'x-mockvideo-scenario': scenario } });
      }
    }
    for (const operation of OPERATION_NAMES) exchanges.push({ method: 'HEAD', path: clientPath(operation) });
    await expectSame(exchanges);
    const journal = fast.context.journal.exchanges();
    expect(journal.length).toBeGreaterThanOrEqual(exchanges.length);
    expect(journal.filter((e) => e.entry.operation === 'ad_config' && e.entry.status === 502).length).toBeGreaterThan(0);
  });

  it('sequences, `when` conditions, header spelling, {origin}, stub faults, rate faults and server-wide faults, in order', async () => {
    for (const { faults } of [fast.context, full.context, mswContext]) {
      faults.clear();
      faults.add({ operation: 'meta/plugin', fault: { kind: 'reset' }, times: 2 });
      faults.add({ operation: 'meta/plugin', fault: { kind: 'status', status: 502 }, times: 2 });
    }
    const exchanges: Exchange[] = [];
    for (let round = 0; round < 10; round++) {
      for (const operation of OPERATION_NAMES) exchanges.push({ method: 'GET', path: `/scenarios/differential${clientPath(operation)}` });
      exchanges.push({ method: 'GET', path: '/scenarios/differential/api/g1/ad_config?_region=DE&_region=IN' });
      exchanges.push({ method: 'GET', path: '/scenarios/differential/api/g1/localplay/diversion?is_from_gallery=false' });
    }
    await expectSame(exchanges);
    const faults = fast.context.journal.exchanges().map((e) => e.entry.fault).filter(Boolean);
    expect(new Set(faults)).toEqual(new Set(['delay', 'status', 'reset', 'malformed-json', 'envelope', 'empty']));
    const statuses = new Set(fast.context.journal.exchanges().map((e) => e.entry.status));
    for (const status of [0, 200, 500, 502, 503]) expect(statuses, `status ${status} was exercised`).toContain(status);
  });

  it('error answers: unknown scenario (prefix and header), other methods, unknown operations, odd spellings left to the full host', async () => {
    await expectSame([
      { method: 'GET', path: '/scenarios/nope/api/g1/meta/cp' },
      { method: 'GET', path: '/api/g1/meta/cp', headers: { 'x-mockvideo-scenario': ' gallery ' } },
      { method: 'GET', path: '/api/g1/meta/cp', headers: { 'x-mockvideo-scenario': 'No Such' } },
      { method: 'POST', path: '/api/g1/meta/cp' },
      { method: 'GET', path: '/api/g1/meta/nothing' },
      { method: 'GET', path: '/api/g1/meta/cp/' },
      { method: 'GET', path: '/scenarios/gal%6cery/api/g1/meta/cp' },
      { method: 'GET', path: '/scenarios/x/../api/g1/meta/cp' },
      { method: 'GET', path: '/api/g1/meta/cp?a=1#frag' },
    ]);
  });

  it('any query string: the same answer, findings and journal entry', async () => {
    const char = fc.constantFrom('a', 'Z', '0', '_', '-', '.', '~', '%20', '%2B', '+', '%', '%zz', '%E2%82%AC', '€', '=', '"', "'", '<', '(', '!', '*', ',', ';', ':', '@', '/', '?', '[', '%00', 'é');
    const text = fc.array(char, { maxLength: 6 }).map((parts) => parts.join(''));
    const name = fc.oneof(fc.constantFrom('_region', 'is_from_gallery', 'ref', '_ts', '_st', '_sdevid', 'valueOf', '__proto__', 'constructor'), text);
    const query = fc.array(fc.tuple(name, fc.option(text, { nil: undefined })), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<OperationName>(...OPERATION_NAMES), query, async (operation, search) => {
        await expectSame([{ method: 'GET', path: `${OPERATIONS[operation].path}?${search}` }]);
      }),
      { numRuns: 40 },
    );
  });
});
