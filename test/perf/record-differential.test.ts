// The record fast path against the Express host: the same requests, in the same order, through a
// recorder with its fast path and one without (every request through Express), each in front of its
// own fake upstream on 127.0.0.1 (the two behave alike). Status, headers (but the connection's own),
// body bytes, recording files, journal entries and log lines must be identical.
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import { DEFAULT_POLICY } from '../../src/normalise/index.js';
import type { ProxyLogEntry, RecordingProxy } from '../../src/record/index.js';
import { createApp } from '../../src/server/app.js';
import { createServerContext, type ServerContext } from '../../src/server/context.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { recordListener } from '../../src/server/record-fast-path.js';
import { formatProxyLine, startRecorder, type RunningRecorder } from '../../src/server/record-server.js';
import { loadScenarioCatalog } from '../../src/storage/load-catalog.js';
import { clientPath } from '../support/client.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';
import { deadUrl, startUpstream, type Upstream, type UpstreamSwitches } from '../support/upstream.js';

interface Exchange {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Send no Host header. */
  noHost?: boolean;
}

/** What a client sees: status, headers without the connection's own, and the body bytes (base64). */
interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers of the connection, not of the answer. */
const CONNECTION = new Set(['date', 'connection', 'keep-alive']);

function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).sort(([a], [b]) => a.localeCompare(b))) if (!CONNECTION.has(name) && value !== undefined) out[name] = Array.isArray(value) ? value.join('\n') : value;
  return out;
}

/**
 * `text` with what differs between the two sides (each has its own upstream, folder and port) written
 * as placeholders; `local` lists `[own text, placeholder]`.
 */
function sameSides(text: string, local: ReadonlyArray<readonly [string, string]>): string {
  let out = text;
  for (const [own, placeholder] of local) out = out.split(own).join(placeholder);
  return out;
}

function overHttp(base: string, exchange: Exchange, local: ReadonlyArray<readonly [string, string]> = []): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${exchange.path.startsWith('/') ? exchange.path : ''}`, { method: exchange.method, headers: exchange.headers ?? {}, agent: false, setHost: !exchange.noHost, ...(exchange.path.startsWith('/') ? {} : { path: exchange.path }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = sameSides(bytes.toString('latin1'), local);
        const headers = answerHeaders(res.headers);
        // An answer that names this side's upstream or folder is as long as the other side's only if their names are.
        if (text !== bytes.toString('latin1')) delete headers['content-length'];
        resolve({ status: res.statusCode!, headers, body: text === bytes.toString('latin1') ? bytes.toString('base64') : text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Journal entries without what differs run to run (ids, times, durations). */
function journalOf(context: ServerContext, local: ReadonlyArray<readonly [string, string]> = []) {
  return context.journal.exchanges().map((exchange) => {
    const { id: _i, time: _t, durationMs: _d, ...entry } = exchange.entry;
    const responseHeaders = withoutConnection(exchange.responseHeaders);
    const responseBody = sameSides(exchange.responseBody, local);
    if (responseBody !== exchange.responseBody) delete responseHeaders['content-length'];
    return { entry, method: exchange.method, path: exchange.path, rawQuery: exchange.rawQuery, requestHeaders: withoutHost(exchange.requestHeaders), responseHeaders, responseBody };
  });
}

/** A header record without the Host (each recorder listens on its own port). */
function withoutHost(headers: Record<string, string>): Record<string, string> {
  const { host: _h, ...rest } = headers;
  return rest;
}

function withoutConnection(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CONNECTION.has(name)));
}

/** Every recording file of a folder, name → text, with the recording time and the measured latency taken out. */
function recordingsOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(dir, folder.name)).sort()) {
      out[`${folder.name}/${file}`] = readFileSync(join(dir, folder.name, file), 'utf8').replace(/"recordedAt": "[^"]*"/, '"recordedAt": "<time>"').replace(/"latency": \{[^}]*\}/, '"latency": "<measured>"');
    }
  }
  return out;
}

/** One side: a recorder, its upstream, its folder and its log. */
interface Side {
  recorder: RunningRecorder;
  upstream: Upstream;
  out: string;
  log: ProxyLogEntry[];
}

async function side(fastPath: boolean, upstream: Upstream, upstreamUrl = upstream.url, timeoutMs = 5000): Promise<Side> {
  const out = tempDir();
  const log: ProxyLogEntry[] = [];
  const recorder = await startRecorder({ upstream: upstreamUrl, out, port: 0, host: '127.0.0.1', timeoutMs, policy: DEFAULT_POLICY, fastPath, onExchange: (entry) => log.push({ ...entry, durationMs: 0 }) });
  return { recorder, upstream, out, log };
}

let upstreams: [Upstream, Upstream];
let pairs: Record<'main' | 'impatient' | 'dead', [fast: Side, full: Side]>;

beforeAll(async () => {
  upstreams = [await startUpstream(), await startUpstream()];
  const dead = await deadUrl();
  pairs = {
    main: [await side(true, upstreams[0]), await side(false, upstreams[1])],
    impatient: [await side(true, upstreams[0], upstreams[0].url, 300), await side(false, upstreams[1], upstreams[1].url, 300)],
    dead: [await side(true, upstreams[0], dead), await side(false, upstreams[1], dead)],
  };
});

afterAll(async () => {
  for (const pair of Object.values(pairs ?? {})) for (const { recorder } of pair) await recorder.stop();
  for (const upstream of upstreams ?? []) await upstream.close();
  removeTempDirs();
});

function setSwitches(switches: Partial<UpstreamSwitches>): void {
  for (const upstream of upstreams) Object.assign(upstream.switches, { delayMs: 0, fail: false, gzip: false, echoSecrets: false }, switches);
}

/** Sends `exchanges` in order through both recorders of `pair` and expects the same answers; then the same files, journals and logs. */
async function expectSame([fast, full]: [Side, Side], exchanges: readonly Exchange[]): Promise<void> {
  const local = (side: Side) => [[side.upstream.url, '<upstream>'], [side.out, '<out>'], [side.recorder.running.url, '<self>']] as const;
  for (const exchange of exchanges) {
    const label = `${exchange.method} ${exchange.path.slice(0, 120)}`;
    const viaFast = await overHttp(fast.recorder.running.url, exchange, local(fast));
    const viaFull = await overHttp(full.recorder.running.url, exchange, local(full));
    expect(viaFast, label).toEqual(viaFull);
  }
  // Journal entries are added when the exchange ends.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(fast.upstream.received.slice(-20)).toEqual(full.upstream.received.slice(-20));
  expect(recordingsOf(fast.out)).toEqual(recordingsOf(full.out));
  expect(journalOf(fast.recorder.context, local(fast))).toEqual(journalOf(full.recorder.context, local(full)));
  expect(fast.log).toEqual(full.log);
  expect(fast.log.map(formatProxyLine)).toEqual(full.log.map(formatProxyLine));
}

describe('the record fast path answers, records, journals and logs exactly what the Express host does', () => {
  it('the six operations as the client sends them, twice (numbered recordings), GET and HEAD', async () => {
    setSwitches({});
    const exchanges: Exchange[] = [];
    for (const round of [1, 2]) for (const operation of OPERATION_NAMES) exchanges.push({ method: 'GET', path: clientPath(operation), ...(round === 2 ? { headers: { 'user-agent': 'okhttp/4.12.0', 'accept-encoding': 'gzip' } } : {}) });
    exchanges.push({ method: 'GET', path: clientPath('localplay/diversion', { is_from_gallery: 'false' }) });
    for (const operation of OPERATION_NAMES) exchanges.push({ method: 'HEAD', path: clientPath(operation) });
    await expectSame(pairs.main, exchanges);
    expect(Object.keys(recordingsOf(pairs.main[0].out)).length).toBeGreaterThanOrEqual(12);
  });

  it('odd queries and headers: encodings, repeats, findings, credentials, not an operation, other methods, long and absolute targets, bad or no Host, other paths', async () => {
    setSwitches({});
    await expectSame(pairs.main, [
      { method: 'GET', path: '/api/g1/meta/cp?_st=tok%2Fen%2b+x&ref=&ref=a&_model=Redmi%20Note&x=%E2%9C%93&y=a+b&_sdevid=%zz&&=' },
      { method: 'GET', path: '/api/g1/meta/cp' },
      { method: 'GET', path: clientPath('ad_config'), headers: { authorization: 'Bearer made-up-bearer-value', cookie: 'sid=made-up-cookie-value; other=1', 'x-extra': 'kept' } },
      { method: 'GET', path: '/api/g1/meta/unknown?x=1' },
      { method: 'GET', path: '/api/g1/' },
      { method: 'GET', path: '/api/g1/meta/cp/?a=1#frag' },
      { method: 'POST', path: clientPath('meta/cp') },
      { method: 'GET', path: `/api/g1/meta/cp?pad=${'x'.repeat(9000)}` },
      { method: 'GET', path: `http://elsewhere.invalid${clientPath('meta/plugin')}` },
      { method: 'GET', path: clientPath('meta/plugin'), headers: { host: 'a b' } },
      { method: 'GET', path: clientPath('meta/plugin'), noHost: true },
      { method: 'GET', path: '/nothing/here?x=1' },
      { method: 'GET', path: '/__mockvideo/no-such-thing' },
    ]);
  });

  it('a misbehaving upstream: gzip, leaked secrets, 5xx, too slow, down', async () => {
    setSwitches({ gzip: true });
    await expectSame(pairs.main, [{ method: 'GET', path: clientPath('meta/setting') }, { method: 'GET', path: clientPath('ad_config') }]);
    setSwitches({ echoSecrets: true });
    await expectSame(pairs.main, [{ method: 'GET', path: clientPath('ad_config') }]);
    setSwitches({ fail: true });
    await expectSame(pairs.main, [{ method: 'GET', path: clientPath('meta/cp') }, { method: 'HEAD', path: clientPath('meta/cp') }]);
    setSwitches({ delayMs: 600 });
    await expectSame(pairs.impatient, [{ method: 'GET', path: clientPath('meta/cp') }]);
    setSwitches({});
    await expectSame(pairs.dead, [{ method: 'GET', path: clientPath('meta/cp') }, { method: 'HEAD', path: clientPath('meta/plugin') }]);
    expect(pairs.dead[0].log.map((entry) => entry.status)).toEqual([502, 502]);
  });
});

describe('an exchange that fails unexpectedly on the fast path', () => {
  /** A proxy whose exchanges fail after a turn of the event loop, as an unexpected error in the real one would reach `next`. */
  function failingProxy(error: Error): Pick<RecordingProxy, 'middleware'> {
    return {
      middleware: (_req, res, next) => {
        setImmediate(() => {
          if (!res.headersSent) next(error);
        });
      },
    };
  }

  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  async function start(fastPath: boolean, error: Error): Promise<{ running: RunningServer; context: ServerContext }> {
    const context = createServerContext({ mode: 'record', catalog: loadScenarioCatalog(), scenario: 'default', policy: DEFAULT_POLICY, details: { upstream: 'http://127.0.0.1:9', recordings: 'unused' } });
    const proxy = failingProxy(error);
    const app = createApp({ handlers: [], after: [proxy.middleware as unknown as RequestHandler], context });
    const running = await listen((fastPath ? recordListener(app, context, proxy) : app) as RequestListener, 0, '127.0.0.1');
    servers.push(running);
    return { running, context };
  }

  it.each([
    ['a request it cannot read (400)', new TypeError('made-up unreadable request')],
    ['a fault of its own (500)', new Error('made-up internal fault')],
  ])('is answered by the Express host error handler: %s', async (_name, error) => {
    const [fast, full] = [await start(true, error), await start(false, error)];
    for (const exchange of [{ method: 'GET', path: clientPath('meta/cp') }, { method: 'HEAD', path: clientPath('meta/cp') }, { method: 'GET', path: '/api/g1/meta/unknown' }] as const) {
      const [viaFast, viaFull] = [await overHttp(fast.running.url, exchange), await overHttp(full.running.url, exchange)];
      expect(viaFast, `${exchange.method} ${exchange.path}`).toEqual(viaFull);
      expect(viaFast.status).toBe(error instanceof TypeError ? 400 : 500);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(journalOf(fast.context)).toEqual(journalOf(full.context));
  });
});
