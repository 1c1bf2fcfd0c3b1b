import { createMiddleware } from '@mswjs/http-middleware';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { HttpHandler } from 'msw';
import { API_PREFIX, OPERATION_NAMES } from '../contract/core.js';
import { ADMIN_PREFIX, adminRouter, foreignGuard } from './admin.js';
import type { ServerContext } from './context.js';
import { journalMiddleware } from './journal-middleware.js';
import { MAX_URL_LENGTH } from './listen.js';
import { resetOnNetworkError } from './network-error.js';
import { requestLog, type RequestLogEntry } from './request-log.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The MSW handlers that answer; everything they leave goes on to a 404. */
  handlers: readonly HttpHandler[];
  /** Middlewares run first, after the request log (e.g. media downloads, `meta/upgrade`, the analytics sink); what they leave goes on. */
  before?: express.RequestHandler[];
  /** Middlewares run after the handlers, before the 404 (e.g. the recording proxy of `--record-missing`). */
  after?: express.RequestHandler[];
  /** Called once per request when it is answered; default: nothing. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** The live state: with it, the admin API under `/__mockvideo` and the journal are on. */
  context?: ServerContext;
}


/** Answers a request target longer than {@link MAX_URL_LENGTH} with a clean 414 (headers over 16 KB get Node's 431). */
function refuseLongUrls(req: Request, res: Response, next: NextFunction): void {
  if (req.url.length <= MAX_URL_LENGTH) return next();
  res.status(414).json({ error: `The request target is ${req.url.length} characters; mockvideo serves at most ${MAX_URL_LENGTH}.` });
}

/**
 * The Express host: the request log, the admin API and the journal (with a `context`), then the MSW
 * handlers through `@mswjs/http-middleware`, then a
 * JSON 404 that points at the operations, then an error handler that answers 400 for a request it
 * cannot parse and 500 otherwise; the process keeps serving other clients either way.
 */
export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', false);
  app.use(refuseLongUrls);
  if (options.onRequest) app.use(requestLog(options.onRequest));
  app.use(ADMIN_PREFIX, foreignGuard());
  for (const middleware of options.before ?? []) app.use(middleware);
  if (options.context) {
    app.use(ADMIN_PREFIX, adminRouter(options.context));
    app.use(journalMiddleware(options.context));
  }
  // http-middleware is CommonJS and types msw from its .d.ts; ours come from .d.mts: same classes at run time.
  app.use(resetOnNetworkError);
  app.use(createMiddleware(...(options.handlers as unknown as Parameters<typeof createMiddleware>)));
  for (const middleware of options.after ?? []) app.use(middleware);
  app.use((req: Request, res: Response) => {
    res.status(404).json({
      error: `Nothing at ${req.method} ${req.path}. mockvideo serves the operations under ${API_PREFIX}.`,
      operations: OPERATION_NAMES.map((name) => `GET ${API_PREFIX}/${name}`),
    });
  });
  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent || res.statusCode === 0) {
      req.socket.destroy();
      return;
    }
    const badRequest = error instanceof URIError || error instanceof TypeError || (error as { status?: number }).status === 400;
    res.status(badRequest ? 400 : 500).json({ error: badRequest ? `Cannot read this request: ${error.message}` : `mockvideo failed to answer: ${error.message}` });
  });
  return app;
}
