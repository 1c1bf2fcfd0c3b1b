import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type express from 'express';
import { createServerContext, replaceCatalog, type ServerContext, type ServerContextOptions } from './context.js';
import { createFastPath } from './fast-path.js';
import { clockAware } from './clock-aware.js';
import { fastPathListener } from './fast-path-listener.js';
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
  /**
   * Reload the scenario files of this folder when they change (see `watchScenarios`); a broken edit
   * keeps the last good scenarios serving. `onReload` hears each attempt, with the live version.
   */
  watch?: { dir: string; onReload: (outcome: { ok: true; version: number } | { ok: false; error: Error; version: number }) => void };
}

/** A running `serve` server and its live state. */
export interface RunningServe {
  running: Pick<RunningServer, 'url' | 'close'>;
  context: ServerContext;
}

/** Watches `watch.dir` and puts each good reload live in `context` (the watcher's modules are loaded only then). */
async function watchCatalog(context: ServerContext, watch: NonNullable<ServeServerOptions['watch']>) {
  const { watchScenarios } = await import('../storage/watch-scenarios.js');
  return watchScenarios({
    dir: watch.dir,
    onReload: (outcome) => {
      try {
        if (!outcome.ok) throw outcome.error;
        replaceCatalog(context, outcome.catalog);
        watch.onReload({ ok: true, version: context.catalogVersion });
      } catch (error) {
        watch.onReload({ ok: false, error: error as Error, version: context.catalogVersion });
      }
    },
  });
}

/**
 * Starts the `serve` server: scenario handlers with the journal, contract findings, faults and the
 * admin API. Requests to the operations take the fast path; the rest go to the Express host, which
 * is loaded when first needed (so `serve` answers its first request without loading Express or msw).
 * @throws UnknownScenarioError for an unknown scenario; the listen error when the port is taken.
 */
export async function startServeServer(options: ServeServerOptions): Promise<RunningServe> {
  const { port, host, onRequest, before, listen: listenWith, fastPath = true, watch, ...contextOptions } = options;
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
    listener = clockAware(context, fastPathListener(createFastPath(context, onRequest ? { onRequest } : {}), toHost), toHost);
  } else {
    const express = await fullHost();
    listener = express;
  }
  const running = await (listenWith ? listenWith(listener) : listen(listener, port, host));
  // Not awaited: the server answers while the watcher loads and starts.
  const watcher = watch
    ? watchCatalog(context, watch).catch((error: Error) => {
        watch.onReload({ ok: false, error, version: context.catalogVersion });
        return undefined;
      })
    : undefined;
  return {
    running: {
      url: running.url,
      close: (...args: Parameters<RunningServer['close']>) => {
        context.closing.abort();
        void watcher?.then((w) => w?.close());
        return running.close(...args);
      },
    },
    context,
  };
}
