import type { RequestListener } from 'node:http';
import type express from 'express';
import { createRoutes, type FuzzAnswers } from '../../routes/index.js';
import { createServerContext, replaceCatalog, type ServerContext, type ServerContextOptions } from '../context.js';
import { deviceListener } from '../host/device-host.js';
import { listen, type RunningServer } from '../listen/listen.js';
import type { RequestLogEntry } from '../host/request-log.js';

/** Which engine answers the device-facing surface: the routes through the Node host (default), or the generated MSW handlers through msw's `getResponse` in Express (slower, same answers). */
export type Engine = 'routes' | 'msw';

/** Options of {@link startServeServer}: the context's, plus where to listen. */
export interface ServeServerOptions extends Omit<ServerContextOptions, 'mode'> {
  port: number;
  host: string;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Express middlewares run first in the host, made from the live context (the analytics sink); made with the host. */
  before?: (context: ServerContext) => express.RequestHandler[] | Promise<express.RequestHandler[]>;
  /** Starts the listening servers instead of one HTTP server on `host:port` (e.g. HTTP and HTTPS: see `startServers`). */
  listen?: (listener: RequestListener) => Promise<Pick<RunningServer, 'url' | 'close'>>;
  /** Default `routes`; `msw` (`--engine msw`) loads Express and msw before listening. */
  engine?: Engine;
  /**
   * Reload the scenario files of this folder when they change (see `watchScenarios`); a broken edit
   * keeps the last good scenarios serving. `onReload` hears each attempt, with the live version.
   */
  /** Generated answers answer the operations (`serve --fuzz`): see `FuzzAnswers`. */
  fuzz?: FuzzAnswers;
  watch?: {
    dir: string;
    onReload: (outcome: { ok: true; version: number } | { ok: false; error: Error; version: number }) => void;
  };
}

/** A running `serve` server and its live state. */
export interface RunningServe {
  running: Pick<RunningServer, 'url' | 'close'>;
  context: ServerContext;
}

/** Watches `watch.dir` and puts each good reload live in `context` (the watcher's modules are loaded only then). */
async function watchCatalog(context: ServerContext, watch: NonNullable<ServeServerOptions['watch']>) {
  const { watchScenarios } = await import('../../storage/watch-scenarios.js');
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
 * Starts the `serve` server: the routes of the scenarios (operations, `meta/upgrade`, downloads)
 * through the Node host, with the journal, contract findings, faults and the admin API. The Express
 * host (admin API, dashboard, analytics) is loaded on the first request that needs it, so `serve`
 * answers its first operation without loading Express or msw. With `engine: 'msw'` the generated
 * MSW handlers answer instead, inside the Express host.
 * @throws UnknownScenarioError for an unknown scenario; the listen error when the port is taken.
 */
export async function startServeServer(options: ServeServerOptions): Promise<RunningServe> {
  const {
    port,
    host,
    onRequest,
    before,
    listen: listenWith,
    engine = 'routes',
    watch,
    fuzz,
    ...contextOptions
  } = options;
  const context = createServerContext({ mode: 'serve', ...contextOptions });
  if (fuzz) context.fuzz = fuzz;
  const scenarios = {
    responder: context.responder,
    activeScenario: () => context.active.scenario,
    faults: context.faults,
  };
  const strictRequests = () => context.strictRequests;
  const expressHost = async () => {
    const device =
      engine === 'msw'
        ? (await import('../host/msw-engine.js')).mswEngine(
            fuzz
              ? (await import('../../msw/adapter.js')).routeHandlers({ scenarios, strictRequests, fuzz })
              : (await import('../../msw/handlers.js')).createScenarioHandlers(context.catalog, {
                  ...scenarios,
                  strictRequests,
                }),
          )
        : undefined;
    const { createApp } = await import('../admin/app.js');
    return createApp({ context, ...(device ? { device } : {}), ...(before ? { before: await before(context) } : {}) });
  };
  const ready = engine === 'msw' ? await expressHost() : undefined;
  const listener = deviceListener({
    context,
    ...(engine === 'routes'
      ? {
          routes: createRoutes({
            scenarios,
            strictRequests,
            clock: context.responder.clock,
            ...(fuzz ? { fuzz } : {}),
          }),
        }
      : {}),
    host: () => ready ?? expressHost(),
    ...(onRequest ? { onRequest } : {}),
  });
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
