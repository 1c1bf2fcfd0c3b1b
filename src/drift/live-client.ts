/**
 * The only way drift reaches the live service: GET requests to one upstream, at most `concurrency`
 * at a time and `rate` a second, each with a total deadline. Redirects are not followed, so nothing
 * goes to another host. Node only (undici).
 * @module
 */
import pLimit from 'p-limit';
import { Pool } from 'undici';
import { API_PREFIX, isOperationName } from '../contract/core.js';
import type { DriftAnswer } from './compare.js';

/** Options of {@link createLiveClient}. */
export interface LiveClientOptions {
  /** The live service, `https://api.example.com` (a path prefix is kept before `/api/g1`). */
  upstream: string;
  /** Seconds the upstream has to answer completely, headers and body. */
  timeoutSeconds: number;
  /** Requests in flight at once, at least 1. */
  concurrency: number;
  /** Requests started per second at most (> 0). */
  rate: number;
  /** Accept an https upstream whose certificate does not verify. */
  insecure?: boolean;
}

/** A live answer, or why there is none (`UND_ERR_HEADERS_TIMEOUT`, `ECONNREFUSED`, ...). */
type LiveAnswer = ({ ok: true } & DriftAnswer) | { ok: false; error: string };

/** A client of the live service: {@link LiveClient.get} a path and query; {@link LiveClient.close} when done. */
export interface LiveClient {
  /** GETs `target` (path and query string, e.g. `/api/g1/meta/cp?_st=…`) from the upstream; never rejects. A path other than exactly `/api/g1/<operation>` is not sent (an answer with `ok: false`). */
  get(target: string, headers?: Record<string, string>): Promise<LiveAnswer>;
  close(): Promise<void>;
}

/**
 * A client bound to one upstream. Answers are read whole as UTF-8 text (drift compares JSON);
 * `accept-encoding: identity` asks for an uncompressed body.
 *
 * @example const live = createLiveClient({ upstream, timeoutSeconds: 10, concurrency: 2, rate: 5 }); await live.get('/api/g1/meta/cp?…')
 */
export function createLiveClient(options: LiveClientOptions): LiveClient {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const pool = new Pool(upstream.origin, {
    connections: options.concurrency,
    ...(options.insecure ? { connect: { rejectUnauthorized: false } } : {}),
  });
  const limit = pLimit(options.concurrency);
  const gapMs = 1000 / options.rate;
  let nextStart = 0;
  const timeoutMs = options.timeoutSeconds * 1000;
  const request = async (target: string, headers: Record<string, string>): Promise<LiveAnswer> => {
    // Only the six operations' exact paths carry the real token: never a prefix, `..` or `//host`.
    const path = target.split('?', 1)[0]!;
    if (!path.startsWith(`${API_PREFIX}/`) || !isOperationName(path.slice(API_PREFIX.length + 1)))
      return { ok: false, error: `not sent: ${JSON.stringify(path)} is not exactly ${API_PREFIX}/<operation>` };
    // Start times spaced by 1/rate seconds, whatever the concurrency.
    const now = Date.now();
    const wait = Math.max(0, nextStart - now);
    nextStart = Math.max(now, nextStart) + gapMs;
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      const answer = await pool.request({
        path: `${basePath}${target}`,
        method: 'GET',
        headers: { 'user-agent': 'mockvideo-drift', ...headers, 'accept-encoding': 'identity', host: upstream.host },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const bytes = await answer.body.arrayBuffer();
      let body: string | undefined;
      try {
        body = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        body = undefined;
      }
      return { ok: true, status: answer.statusCode, body };
    } catch (error) {
      const { code, name, message } = error as NodeJS.ErrnoException;
      return {
        ok: false,
        error: name === 'TimeoutError' ? `no complete answer within ${options.timeoutSeconds} s` : (code ?? message),
      };
    }
  };
  return {
    get: (target, headers = {}) => limit(() => request(target, headers)),
    close: () => pool.close(),
  };
}
