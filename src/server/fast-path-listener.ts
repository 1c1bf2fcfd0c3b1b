import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

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
