import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Finding } from '../findings/index.js';
import type { ServerContext } from './context.js';
import { findingsOf, operationTarget, type OperationTarget } from './journal-middleware.js';
import { MAX_URL_LENGTH } from './listen.js';

/**
 * A step in front of a server's Express host: answers a request itself and returns `true`, or
 * returns `false`, touching nothing, to leave it to the host. May throw only before it answered.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The most origins remembered by {@link originReader} (one per `Host` spelling and scheme seen: a client controls them). */
const MAX_ORIGINS = 64;

/**
 * A reader of the origin a request was made to (`http://127.0.0.1:8787`), as msw's request URL has
 * it: the connection's scheme and the `Host` header, normalised by `URL`. `undefined` without a
 * `Host` header or with one that does not parse (the full host answers such a request with 400).
 * Remembers the last {@link MAX_ORIGINS} spellings, so a request pays for a `URL` only once.
 */
export function originReader(): (req: IncomingMessage) => string | undefined {
  const origins = new Map<string, string>();
  return (req) => {
    if (req.headers.host === undefined) return undefined;
    const base = `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host}`;
    let origin = origins.get(base);
    if (origin === undefined) {
      try {
        origin = new URL(base).origin;
      } catch {
        return undefined;
      }
      if (origins.size >= MAX_ORIGINS) origins.clear();
      origins.set(base, origin);
    }
    return origin;
  };
}

/**
 * The request paths the serve and replay fast paths take: an operation, bare or below a
 * `/scenarios/<name>` prefix whose name is a scenario name (lowercase letters, digits, dashes). Other
 * spellings (percent-encoded names, dot segments, a trailing slash) are left to the full host, which
 * answers them through msw's URL parsing.
 */
const OPERATION_PATH = /^(?:\/scenarios\/[a-z0-9][a-z0-9-]*)?\/api\/g1\/[a-z_]+(?:\/[a-z_]+)?$/;

/** A request the serve or replay fast path may answer, as {@link operationRequest} reads it. */
export interface OperationRequest {
  method: 'GET' | 'HEAD';
  target: OperationTarget;
  /** As {@link originReader} gives it. */
  origin: string;
  /** Its contract findings (shared and frozen: see `queryFindings`). */
  findings: readonly Finding[];
}

/**
 * Reads a GET or HEAD request to an operation (see {@link OPERATION_PATH}) for a fast path, or
 * `undefined` for every request the full host must answer: other methods and paths, a request
 * target over `MAX_URL_LENGTH` or with `#`, no valid `Host` (`originOf` gives none), and with
 * `--strict-requests` a request with findings (the host answers it 400).
 */
export function operationRequest(context: ServerContext, req: IncomingMessage, originOf: (req: IncomingMessage) => string | undefined): OperationRequest | undefined {
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const url = req.url ?? '';
  if (url.length > MAX_URL_LENGTH || url.includes('#')) return undefined;
  const target = operationTarget(url);
  if (!target || !OPERATION_PATH.test(target.path)) return undefined;
  const origin = originOf(req);
  if (origin === undefined) return undefined;
  const findings = findingsOf(req, target);
  if (context.strictRequests && findings.length) return undefined;
  return { method, target, origin, findings };
}

/**
 * Answers one request that mockvideo itself failed to answer: a JSON 500
 * `{ "error": "mockvideo failed to answer: <message>" }`, or, when its headers are already sent,
 * a closed connection. Other clients are not affected.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) req.socket.destroy();
  else if (!res.destroyed) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: `mockvideo failed to answer: ${(error as Error)?.message}` }));
}

/**
 * The request listener of a server with a fast path: `fast` first, and what it leaves goes to
 * `host`. An exception of the fast path is answered to that client alone ({@link answerFailure}).
 */
export function fastPathListener(fast: FastPath, host: (req: IncomingMessage, res: ServerResponse) => unknown): RequestListener {
  return (req, res) => {
    let taken: boolean;
    try {
      taken = fast(req, res);
    } catch (error) {
      answerFailure(req, res, error);
      return;
    }
    if (!taken) void host(req, res);
  };
}
