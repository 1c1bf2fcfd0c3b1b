import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { operationOfPath, toServiceJson } from '../../src/contract/index.js';
import { afterAll, beforeAll } from 'vitest';
import { minimalScenario, item } from './minimal-scenario.js';
import { removeTempDirs } from './recordings.js';

/** Switches a test flips to make the fake service misbehave. */
export interface UpstreamSwitches {
  /** Milliseconds to wait before answering. */
  delayMs: number;
  /** Answer 503 with a failure body. */
  fail: boolean;
  /** gzip every body (Content-Encoding: gzip). */
  gzip: boolean;
  /** Echo the raw query string (token and identifiers included) in ad_config's body and a header: a leak to catch. */
  echoSecrets: boolean;
}

/** A fake of the real service on 127.0.0.1: what it received, how often, and its switches. */
export interface Upstream {
  url: string;
  /** Every request target (path and query) exactly as received. */
  received: string[];
  /** The exact body bytes sent for each request, in order. */
  sent: Buffer[];
  switches: UpstreamSwitches;
  /** meta/setting calls so far. */
  settingCalls: number;
  close: () => Promise<void>;
}

const scenario = minimalScenario();

/** The `data` of one operation; the diversion depends on `is_from_gallery`, meta/setting counts calls. */
function dataOf(operation: string, query: URLSearchParams, settingCall: number): unknown {
  const ops = scenario.operations as Record<string, unknown>;
  switch (operation) {
    case 'localplay/diversion': {
      const gallery = query.get('is_from_gallery') === 'true';
      const items = gallery
        ? [item('g1', 0, 9, 'Gallery पहला & one'), item('g2', 1, 5)]
        : [item('n1', 0, 7, 'Other 一つ')];
      return { end: items, exit: items, suspend: items };
    }
    case 'meta/setting':
      return { ...(ops['meta/setting'] as { data: object }).data, recommend_show_times_interval: settingCall };
    case 'localplay/recomm':
      return [item('r1', 0, 3, 'Recomm 🎬 & more'), item('r2', 1, 2)];
    default:
      return (ops[operation] as { data: unknown }).data;
  }
}

/**
 * Starts a fake of the seed's service on 127.0.0.1 port 0: the envelope, `&` written as `\u0026`,
 * a diversion that depends on `is_from_gallery`, a counter in meta/setting, a `Set-Cookie` header,
 * and {@link UpstreamSwitches} to simulate timeouts, 5xx, gzip and leaks.
 */
export async function startUpstream(): Promise<Upstream> {
  const state: Omit<Upstream, 'url' | 'close'> = {
    received: [],
    sent: [],
    switches: { delayMs: 0, fail: false, gzip: false, echoSecrets: false },
    settingCalls: 0,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    state.received.push(target);
    const at = target.indexOf('?');
    const path = at < 0 ? target : target.slice(0, at);
    const search = at < 0 ? '' : target.slice(at + 1);
    const operation = operationOfPath(path);
    const answer = () => {
      if (!operation) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such operation"}');
        return;
      }
      if (state.switches.fail) {
        res
          .writeHead(503, { 'content-type': 'application/json; charset=utf-8' })
          .end('{"data":null,"msg":"busy","result":0}');
        return;
      }
      const query = new URLSearchParams(search);
      if (operation === 'meta/setting') state.settingCalls++;
      let data = dataOf(operation, query, state.settingCalls);
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'set-cookie': 'session=made-up-session-cookie-value; Path=/',
        'x-served-by': 'fake-upstream',
      };
      if (state.switches.echoSecrets && operation === 'ad_config') {
        data = { echo: search, token: query.get('_st'), device: query.get('_sdevid') };
        headers['x-echo-token'] = query.get('_st') ?? '';
      }
      let body = Buffer.from(toServiceJson({ data, msg: 'OK', result: 1 }), 'utf8');
      if (state.switches.gzip) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
      state.sent.push(body);
      res.writeHead(200, { ...headers, 'content-length': String(body.length) }).end(body);
    };
    if (state.switches.delayMs > 0) setTimeout(answer, state.switches.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream = state as Upstream;
  upstream.url = `http://127.0.0.1:${port}`;
  upstream.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return upstream;
}

/** A URL where nothing listens (a port that was just free). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/**
 * Starts a fake upstream before the calling test file's tests and, after them, closes it and removes
 * the temporary recording folders. The handle reads the running upstream (`url`, `received`,
 * `switches`, …) once the tests run.
 */
export function useUpstream(): Upstream {
  let current: Upstream | undefined;
  beforeAll(async () => {
    current = await startUpstream();
  });
  afterAll(async () => {
    removeTempDirs();
    await current?.close();
  });
  return new Proxy({} as Upstream, { get: (_target, key) => Reflect.get(current!, key) });
}
