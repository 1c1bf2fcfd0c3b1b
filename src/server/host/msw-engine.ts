import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { NextFunction, RequestHandler } from 'express';
import { getResponse, type HttpHandler } from 'msw';

/**
 * The fetch `Request` of a Node request, as msw's interceptor would make it: the URL on the
 * connection's scheme and the `Host` header, every header as sent (repeated ones appended), no body
 * (the handlers of mockvideo never read one, and the request stream stays unread for the
 * middlewares after this one, e.g. the recording proxy of `--record-missing`).
 */
function fetchRequest(req: IncomingMessage): Request {
  const origin = `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers });
}

/** Sets a fetch `Response`'s headers on `res` (so that `getHeaders()` shows them to the journal): `set-cookie` as a list, others as one value each. */
function setHeaders(res: ServerResponse, response: Response): void {
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
}

/** Writes msw's answer: status, headers and body bytes as they are (none for HEAD); a network error (status 0) closes the connection. */
async function writeAnswer(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  if (response.type === 'error' || response.status === 0) {
    req.socket.destroy();
    return;
  }
  const body = req.method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer());
  setHeaders(res, response);
  res.writeHead(response.status);
  res.end(body);
}

/**
 * `--engine msw`: the generated MSW handlers (the ones `createHandlers` / `createReplayHandlers`
 * give test authors) as Express middleware, through msw's own `getResponse` (msw 2 and 3 alike).
 * Slower than the default engine, same answers. A request no handler answers goes to `next()`; a
 * network error (`HttpResponse.error()`: the `reset` and `hang` faults) closes the connection; a
 * failure of the handlers goes to `next(error)`, which the host answers with a 500 naming mockvideo.
 */
export function mswEngine(handlers: readonly HttpHandler[]): RequestHandler {
  const list = [...handlers];
  return (req, res, next: NextFunction) => {
    let request: Request;
    try {
      request = fetchRequest(req);
    } catch (error) {
      return next(Object.assign(new Error(`Cannot read this request: ${(error as Error).message}`), { status: 400 }));
    }
    getResponse(list, request)
      .then(
        (response) => (response ? writeAnswer(req, res, response) : next()),
        (error: unknown) => next(error),
      )
      .catch((error: unknown) => next(error));
  };
}
