// The replay fast path against the full host: the same requests, in the same order, to a replay
// server with its fast path (src/server/replay-fast-path.ts) and to one without it (Express,
// @mswjs/http-middleware and the msw replay handlers), both real servers over HTTP. Status, status
// message, every header in order (but the transport's date/connection/keep-alive), body bytes,
// journal entries, log lines, sequences and the unused list must be identical.
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_POLICY, REDACTED, matchKey, type RawPair, type Recording } from '../../src/normalise/index.js';
import type { MatchMode } from '../../src/replay/replayer.js';
import type { RequestLogEntry } from '../../src/server/request-log.js';
import { startReplayServer, type RunningReplay } from '../../src/server/replay-server.js';
import { RecordingWriter } from '../../src/storage/recordings.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

interface Exchange {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

/** What a client sees: status and message, the raw header lines in order (but the transport's), the body. */
interface Seen {
  status: number;
  message: string;
  headers: string[];
  /** The body bytes, one character per byte (latin1): readable in a diff, exact. */
  body: string;
}

const TRANSPORT = new Set(['date', 'connection', 'keep-alive']);

/** `text` with the server's own origin written `{origin}` (fallback answers name it; the two servers listen on different ports). */
function withoutOrigin(text: string, origin: string): string {
  return text.split(origin).join('{origin}');
}

function overHttp(base: string, exchange: Exchange): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    // Options, not a URL: a URL would lose the '#' of a path.
    const req = httpRequest({ hostname, port, path: exchange.path, method: exchange.method, headers: exchange.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (!TRANSPORT.has(res.rawHeaders[i]!.toLowerCase())) headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, message: res.statusMessage!, headers, body: withoutOrigin(Buffer.concat(chunks).toString('latin1'), base) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A recording of `operation` for `query` answering `response`. */
function recording(operation: string, query: RawPair[], response: Recording['response']): Recording {
  return {
    operation: operation as Recording['operation'],
    matchKey: matchKey('GET', operation, query, DEFAULT_POLICY),
    recordedAt: '2026-11-22T10:00:00.000Z',
    request: { method: 'GET', path: `/api/g1/${operation}`, query, headers: {} },
    response,
  };
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
/** Bigger than the servers' response cache: read from its file each time it is served. */
const BIG_BODY = JSON.stringify({ result: 1, data: { items: Array.from({ length: 1000 }, (_, i) => ({ id: i, title: `item ${i} \u00e9\u20ac` })) } });
const CACHE_BYTES = 16 * 1024;

/** The recording set: names by role, filled in when written. */
const names: Record<string, string> = {};

async function writeRecordings(dir: string): Promise<void> {
  const writer = new RecordingWriter(dir);
  const put = async (role: string, r: Recording) => {
    names[role] = await writer.write(r);
  };
  // The service's \u0026 escapes, kept byte for byte (never re-serialised).
  await put('escapes', recording('meta/cp', [['_region', 'IN']], { status: 200, headers: { ...JSON_TYPE, 'X-Upstream': 'a' }, body: '{"result":1,"data":{"url":"https://x.test/a?b=1\\u0026c=2"}}' }));
  // A sequence of three under one key: served in order, the last repeating.
  await put('seq0', recording('meta/setting', [['v', '1']], { status: 200, headers: JSON_TYPE, body: '{"result":1,"n":0}' }));
  await put('seq1', recording('meta/setting', [['v', '1']], { status: 503, headers: { ...JSON_TYPE, 'retry-after': '1' }, body: '{"result":0,"msg":"busy"}' }));
  await put('seq2', recording('meta/setting', [['v', '1']], { status: 200, headers: JSON_TYPE, body: '{"result":1,"n":2}' }));
  // A redacted set-cookie (dropped), mixed-case header names, a header msw's Headers sorts first.
  await put('cookie', recording('ad_config', [], { status: 200, headers: { 'Set-Cookie': REDACTED, 'Content-Type': 'application/json', 'X-B': '2', 'Accept-Ranges': 'none', 'x-a': '1' }, body: '{"result":1}' }));
  // Nearest-match candidates.
  await put('near', recording('localplay/recomm', [['a', '1'], ['b', '2']], { status: 200, headers: JSON_TYPE, body: '{"result":1,"near":true}' }));
  // Read from its file each time (bigger than the cache); deleted after start.
  await put('big', recording('meta/plugin', [['big', '1']], { status: 200, headers: JSON_TYPE, body: BIG_BODY }));
  // Empty body, a status msw and Node word differently, non-UTF-8 bytes, a query URL parsing re-encodes.
  await put('empty', recording('meta/plugin', [['empty', '1']], { status: 204, headers: {}, body: '' }));
  await put('teapot', recording('meta/plugin', [['tea', '1']], { status: 418, headers: JSON_TYPE, body: '{}' }));
  await put('binary', recording('meta/plugin', [['bin', '1']], { status: 200, headers: { 'content-type': 'application/octet-stream' }, bodyBase64: Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]).toString('base64') }));
  await put('quoted', recording('meta/cp', [['q', "it's"], ['w', '"x"']], { status: 200, headers: JSON_TYPE, body: '{"result":1,"quoted":true}' }));
  await put('unused', recording('meta/cp', [['_region', 'DE']], { status: 200, headers: JSON_TYPE, body: '{"result":1,"unused":true}' }));
  await writer.flush();
}

interface Pair {
  fast: RunningReplay;
  full: RunningReplay;
  logs: { fast: RequestLogEntry[]; full: RequestLogEntry[] };
}

let dir: string;
const pairs: Pair[] = [];

async function startPair(options: { match: MatchMode; fallbackScenario?: string }): Promise<Pair> {
  const logs = { fast: [] as RequestLogEntry[], full: [] as RequestLogEntry[] };
  const start = (fastPath: boolean, log: RequestLogEntry[]) =>
    startReplayServer({ dir, policy: DEFAULT_POLICY, port: 0, host: '127.0.0.1', cacheBytes: CACHE_BYTES, fastPath, onRequest: (entry) => log.push({ ...entry, durationMs: 0 }), ...options });
  const [fast, full] = await Promise.all([start(true, logs.fast), start(false, logs.full)]);
  const pair = { fast, full, logs };
  pairs.push(pair);
  return pair;
}

beforeAll(async () => {
  dir = tempDir('mockvideo-replay-diff-');
  await writeRecordings(dir);
});

afterAll(async () => {
  await Promise.all(pairs.flatMap(({ fast, full }) => [fast.stop(), full.stop()]));
  removeTempDirs();
});

/** Journal entries without what differs run to run (ids, times, durations). */
function journalOf(replay: RunningReplay) {
  return replay.context.journal.exchanges().map((exchange) => {
    const { id: _i, time: _t, durationMs: _d, ...entry } = exchange.entry;
    return { entry, method: exchange.method, path: exchange.path, rawQuery: exchange.rawQuery, requestHeaders: { ...exchange.requestHeaders, host: '' }, responseHeaders: exchange.responseHeaders, responseBody: withoutOrigin(exchange.responseBody, replay.running.url) };
  });
}

/** Sends `exchanges` in order to both servers of `pair` and expects the same answers, journal, log and unused list. */
async function expectSame(pair: Pair, exchanges: readonly Exchange[]): Promise<Seen[]> {
  const seen: Seen[] = [];
  for (const exchange of exchanges) {
    const viaFast = await overHttp(pair.fast.running.url, exchange);
    const viaFull = await overHttp(pair.full.running.url, exchange);
    expect(viaFast, `${exchange.method} ${exchange.path}`).toEqual(viaFull);
    seen.push(viaFast);
  }
  await new Promise((r) => setTimeout(r, 20));
  expect(journalOf(pair.fast)).toEqual(journalOf(pair.full));
  expect(pair.logs.fast).toEqual(pair.logs.full);
  expect(pair.fast.replayer.unused()).toEqual(pair.full.replayer.unused());
  return seen;
}

const header = (seen: Seen, name: string) => seen.headers.find((line) => line.toLowerCase().startsWith(`${name}: `))?.slice(name.length + 2);

describe('the replay fast path answers exactly what the full host answers', () => {
  it('nearest mode: exact, sequences, redaction, escapes, HEAD, nearest, misses, odd statuses and bodies', async () => {
    const pair = await startPair({ match: 'nearest' });
    // Only the fast path asks `served`; the host asks `find`.
    const served = vi.spyOn(pair.fast.replayer, 'served');
    const seen = await expectSame(pair, [
      { method: 'GET', path: '/api/g1/meta/cp?_region=IN' },
      { method: 'GET', path: '/api/g1/meta/cp?_region=IN' },
      { method: 'HEAD', path: '/api/g1/meta/cp?_region=IN' },
      { method: 'GET', path: '/scenarios/anything/api/g1/meta/cp?_region=IN' },
      ...Array.from({ length: 5 }, () => ({ method: 'GET' as const, path: '/api/g1/meta/setting?v=1' })),
      { method: 'GET', path: '/api/g1/ad_config' },
      { method: 'GET', path: '/api/g1/ad_config?' },
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=2' },
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=3' },
      { method: 'GET', path: '/api/g1/localplay/recomm?b=2&a=1&c' },
      { method: 'GET', path: '/api/g1/meta/plugin?big=1' },
      { method: 'GET', path: '/api/g1/meta/plugin?big=1' },
      { method: 'GET', path: '/api/g1/meta/plugin?empty=1' },
      { method: 'HEAD', path: '/api/g1/meta/plugin?empty=1' },
      { method: 'GET', path: '/api/g1/meta/plugin?tea=1' },
      { method: 'GET', path: '/api/g1/meta/plugin?bin=1' },
      { method: 'GET', path: `/api/g1/meta/cp?q=it's&w="x"` },
      { method: 'GET', path: `/api/g1/meta/cp?q=it%27s&w=%22x%22` },
      // Misses (no recording of the operation): the near-miss 404, as JSON and as text.
      { method: 'GET', path: '/api/g1/localplay/diversion?x=1' },
      { method: 'GET', path: '/api/g1/localplay/diversion?x=1', headers: { accept: 'text/plain' } },
      // Left to the host: other methods, odd spellings, unknown operations, '#', a bad Host.
      { method: 'POST', path: '/api/g1/meta/cp?_region=IN' },
      { method: 'GET', path: '/api/g1/meta/cp/?_region=IN' },
      { method: 'GET', path: '/api/g1/meta/nothing' },
      { method: 'GET', path: '/api/g1/meta/cp?_region=IN#x' },
      { method: 'GET', path: '/api/g1/meta/cp?_region=IN', headers: { host: 'bad host' } },
    ]);
    // The fast path answered the 22 requests a recording answers, and declined the misses (2) untouched.
    expect(served.mock.results.filter((r) => r.value !== undefined)).toHaveLength(22);
    expect(served.mock.results.filter((r) => r.value === undefined)).toHaveLength(2);
    // The cases are what they claim to be.
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 503, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 204, 204, 418, 200, 200, 200, 404, 404, 405, 200, 404, 200, 400]);
    expect(header(seen[0]!, 'x-mockvideo-match')).toBe('exact');
    expect(seen[0]!.body).toContain('\\u0026');
    expect(seen[2]!.body.length).toBe(0);
    expect(seen.slice(4, 9).map((s) => JSON.parse(s.body).n ?? 'busy')).toEqual([0, 'busy', 2, 2, 2]);
    expect(header(seen[9]!, 'set-cookie')).toBeUndefined();
    expect(header(seen[12]!, 'x-mockvideo-match')).toBe('nearest');
    expect(header(seen[12]!, 'x-mockvideo-differences')).toBe('b');
    expect(seen[14]!.body).toBe(Buffer.from(BIG_BODY).toString('latin1'));
    expect(header(seen[18]!, 'x-mockvideo-recording')).toBe(names.teapot);
    expect(seen[19]!.body).toBe(Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]).toString('latin1'));
    expect(JSON.parse(seen[20]!.body).quoted).toBe(true);
    expect(pair.fast.replayer.unused()).toEqual([names.unused]);
  });

  it('a recording whose file is deleted after start: the same 500 naming it, then the same again once restored', async () => {
    const pair = await startPair({ match: 'nearest' });
    const file = join(dir, names.big!);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const text = readFileSync(file, 'utf8');
    await expectSame(pair, [{ method: 'GET', path: '/api/g1/meta/plugin?big=1' }]);
    rmSync(file);
    try {
      const [gone] = await expectSame(pair, [
        { method: 'GET', path: '/api/g1/meta/plugin?big=1' },
        { method: 'HEAD', path: '/api/g1/meta/plugin?big=1' },
        { method: 'GET', path: '/api/g1/meta/plugin?empty=1' },
      ]);
      expect(gone!.status).toBe(500);
      expect(JSON.parse(gone!.body)).toMatchObject({ recording: names.big });
      expect(header(gone!, 'x-mockvideo-recording')).toBe(names.big);
    } finally {
      writeFileSync(file, text);
    }
    await expectSame(pair, [{ method: 'GET', path: '/api/g1/meta/plugin?big=1' }]);
  });

  it('strict mode: exact answers, and the near-miss 404 for what is only near', async () => {
    const pair = await startPair({ match: 'strict' });
    const seen = await expectSame(pair, [
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=2' },
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=3' },
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=3', headers: { accept: 'text/plain' } },
      { method: 'GET', path: '/api/g1/meta/setting?v=1' },
      { method: 'GET', path: '/api/g1/meta/setting?v=1' },
    ]);
    expect(seen.map((s) => s.status)).toEqual([200, 404, 404, 200, 503]);
  });

  it('with a fallback scenario: exact answers here, fallback answers (never a nearest one) from the host, in one order', async () => {
    const pair = await startPair({ match: 'nearest', fallbackScenario: 'default' });
    const seen = await expectSame(pair, [
      { method: 'GET', path: '/api/g1/meta/cp?_region=IN' },
      { method: 'GET', path: '/api/g1/localplay/recomm?a=1&b=3' },
      { method: 'GET', path: '/api/g1/localplay/diversion?x=1' },
      { method: 'GET', path: '/api/g1/meta/setting?v=1' },
      { method: 'GET', path: '/api/g1/meta/setting?v=1' },
    ]);
    expect(seen.map((s) => header(s, 'x-mockvideo-match'))).toEqual(['exact', 'fallback', 'fallback', 'exact', 'exact']);
  });

  it('sequences start again for both after resetSequences, and concurrent requests all get an answer', async () => {
    const pair = await startPair({ match: 'nearest' });
    await expectSame(pair, [{ method: 'GET', path: '/api/g1/meta/setting?v=1' }]);
    pair.fast.replayer.resetSequences();
    pair.full.replayer.resetSequences();
    await expectSame(pair, [{ method: 'GET', path: '/api/g1/meta/setting?v=1' }]);
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => overHttp(pair.fast.running.url, { method: 'GET', path: i % 2 ? '/api/g1/meta/cp?_region=IN' : '/api/g1/meta/plugin?big=1' })));
    expect(many.every((s) => s.status === 200)).toBe(true);
  });
});
