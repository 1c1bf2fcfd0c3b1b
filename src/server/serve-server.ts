import type { RequestListener } from 'node:http';
import type express from 'express';
import { createApp } from './app.js';
import { contextHandlers, createServerContext, type ServerContext, type ServerContextOptions } from './context.js';
import { createFastPath } from './fast-path.js';
import { listen, type RunningServer } from './listen.js';
import type { RequestLogEntry } from './request-log.js';

/** Options of {@link startServeServer}: the context's, plus where to listen. */
export interface ServeServerOptions extends Omit<ServerContextOptions, 'mode'> {
  port: number;
  host: string;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Middlewares run first, made from the live context (media downloads, `meta/upgrade`, analytics: see `deviceRoutes`). */
  before?: (context: ServerContext) => express.RequestHandler[];
  /** Starts the listening servers instead of one HTTP server on `host:port` (e.g. HTTP and HTTPS: see `startServers`). */
  listen?: (listener: RequestListener) => Promise<Pick<RunningServer, 'url' | 'close'>>;
  /** Answer operations through the fast path (see `createFastPath`); default true. `false` sends every request through Express and msw. */
  fastPath?: boolean;
}

/** A running `serve` server and its live state. */
export interface RunningServe {
  running: Pick<RunningServer, 'url' | 'close'>;
  context: ServerContext;
}

/**
 * Starts the `serve` server: scenario handlers with the journal, contract findings, faults and the
 * admin API. Requests to the operations take the fast path; the rest go to the Express host.
 * @throws UnknownScenarioError for an unknown scenario; the listen error when the port is taken.
 */
export async function startServeServer(options: ServeServerOptions): Promise<RunningServe> {
  const { port, host, onRequest, before, listen: listenWith, fastPath = true, ...contextOptions } = options;
  const context = createServerContext({ mode: 'serve', ...contextOptions });
  const app = createApp({ handlers: contextHandlers(context), context, ...(onRequest ? { onRequest } : {}), ...(before ? { before: before(context) } : {}) });
  const fast = fastPath ? createFastPath(context, onRequest ? { onRequest } : {}) : undefined;
  const listener: RequestListener = fast ? (req, res) => void (fast(req, res) || app(req, res)) : app;
  return { running: await (listenWith ? listenWith(listener) : listen(listener, port, host)), context };
}
