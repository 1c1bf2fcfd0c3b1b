import { createMiddleware } from '@mswjs/http-middleware';
import type { RequestHandler } from 'express';
import type { HttpHandler } from 'msw';

/**
 * `--engine msw`: the generated MSW handlers (the ones `createHandlers` / `createReplayHandlers`
 * give test authors) through `@mswjs/http-middleware`, as Express middleware. Slower than the
 * default engine, same answers. msw's network error (status 0: the `reset` and `hang` faults)
 * cannot be written: its write fails, and the host's error handler closes the connection.
 */
export function mswEngine(handlers: readonly HttpHandler[]): RequestHandler {
  // http-middleware is CommonJS and types msw from its .d.ts; ours come from .d.mts: same classes at run time.
  return createMiddleware(...(handlers as unknown as Parameters<typeof createMiddleware>)) as unknown as RequestHandler;
}
