import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type express from 'express';
import { createServerContext, type ServerContext, type ServerContextOptions } from './context.js';
import { createFastPath } from './fast-path.js';
import { listen, type RunningServer } from './listen.js';
import type { RequestLogEntry } from './request-log.js';

/** Options of {@link startServeServer}: the context's, plus where to listen. */
export interface ServeServerOptions extends Omit<ServerContextOptions, 'mode'> {
  port: number;
  host: string;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Middlewares run first, made from the live context (media downloads, `meta/upgrade`, analytics: see `deviceRoutes`); made with the host. */
  before?: (context: ServerContext) => express.RequestHandler[] | Promise<express.RequestHandler[]>;
  /** Starts the listening servers instead of one HTTP server on `host:port` (e.g. HTTP and HTTPS: see `startServers`). */
  listen?: (listener: RequestListener) => Promise<Pick<RunningServer, 'url' | 'close'>>;
  /**
   * Answer operations through the fast path (see `createFastPath`), and load the Express host (admin
   * API, dashboard, device routes, the MSW handlers) on the first request it leaves; default true.
   * `false` builds the host before listening and sends every request through Express and msw.
   */
  fastPath?: boolean;
}

/** A running `serve` server and its live state. */
export interface RunningServe {
  running: Pick<RunningServer, 'url' | 'close'>;
  context: ServerContext;
}

/**
 * Starts the `serve` server: scenario handlers with the journal, contract findings, faults and the
 * admin API. Requests to the operations take the fast path; the rest go to the Express host, which
 * is loaded when first needed (so `serve` answers its first request without loading Express or msw).
 * @throws UnknownScenarioError for an unknown scenario; the listen error when the port is taken.
 */
export async function startServeServer(options: ServeServerOptions): Promise<RunningServe> {
  const { port, host, onRequest, before, listen: listenWith, fastPath = true, ...contextOptions } = options;
  const context = createServerContext({ mode: 'serve', ...contextOptions });
  let app: Promise<express.Express> | undefined;
  const fullHost = () =>
    (app ??= (async () => {
      // One after the other: http-middleware require()s msw, which must not be half-loaded by a parallel import().
      const { contextHandlers } = await import('./context-handlers.js');
      const { createApp } = await import('./app.js');
      return createApp({ handlers: contextHandlers(context), context, ...(onRequest ? { onRequest } : {}), ...(before ? { before: await before(context) } : {}) });
    })());
  const toHost = (req: IncomingMessage, res: ServerResponse) =>
    fullHost().then(
      (express) => express(req, res),
      (error: Error) => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: `mockvideo could not load its HTTP host: ${error.message}` }));
      },
    );
  let listener: RequestListener;
  if (fastPath) {
    const fast = createFastPath(context, onRequest ? { onRequest } : {});
    listener = (req, res) => void (fast(req, res) || toHost(req, res));
  } else {
    const express = await fullHost();
    listener = express;
  }
  const running = await (listenWith ? listenWith(listener) : listen(listener, port, host));
  return {
    running: {
      url: running.url,
      close: (...args: Parameters<RunningServer['close']>) => {
        context.closing.abort();
        return running.close(...args);
      },
    },
    context,
  };
}
