import type { ServerResponse } from 'node:http';
import { createMiddleware } from '@mswjs/http-middleware';
import type { RequestHandler } from 'express';
import type { HttpHandler } from 'msw';

/**
 * `--engine msw`: the generated MSW handlers (the ones `createHandlers` / `createReplayHandlers`
 * give test authors) through `@mswjs/http-middleware`, as Express middleware. Slower than the
 * default engine, same answers. msw's network error (`HttpResponse.error()`, status 0: the `reset`
 * and `hang` faults) becomes a closed connection: http-middleware would write status 0, which Node
 * refuses with an exception nobody catches (the process would end).
 */
export function mswEngine(handlers: readonly HttpHandler[]): RequestHandler {
  // http-middleware is CommonJS and types msw from its .d.ts; ours come from .d.mts: same classes at run time.
  const middleware = createMiddleware(...(handlers as unknown as Parameters<typeof createMiddleware>)) as unknown as RequestHandler;
  return (req, res, next) => {
    const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if ((typeof args[0] === 'number' ? args[0] : this.statusCode) !== 0) return writeHead.apply(this, args);
      req.socket.destroy();
      return this;
    } as typeof res.writeHead;
    return middleware(req, res, next);
  };
}
