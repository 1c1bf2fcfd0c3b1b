import type { FuzzAnswers, RoutesOptions } from '../../routes/index.js';
import type { ScenarioCatalog } from '../../scenarios/catalog.js';
import { createServerContext, type ServerContext } from '../context.js';
import type { ClientRequest } from '../../state/client-state.js';
import type { StartedServers } from '../listen/start-servers.js';
import { engineRoutes, listenForDevices, type ServerSettings } from './device-server.js';

/** Options of {@link startServeServer}: the shared settings, and serve's own. */
export interface ServeServerOptions extends ServerSettings {
  /** The scenarios served. */
  catalog: ScenarioCatalog;
  /** `--scenario`: the active scenario at start. */
  scenario: string;
  /** Generated answers answer the operations (`serve --fuzz`): see `FuzzAnswers`. */
  fuzz?: FuzzAnswers;
  /**
   * Reload the scenario files of this folder when they change (see `watchScenarios`); a broken edit
   * keeps the last good scenarios serving. `onReload` hears each attempt, with the live version.
   */
  watch?: {
    dir: string;
    onReload: (outcome: { ok: true; version: number } | { ok: false; error: Error; version: number }) => void;
  };
}

/** A running `serve` server and its live state. */
export interface RunningServe {
  running: StartedServers;
  context: ServerContext;
}

/**
 * Watches `watch.dir` and puts each good reload live in `context` from the next request on: every
 * sequence starts again and `catalogVersion` counts up. A reload without the active scenario
 * replaces nothing and fails with UnknownScenarioError. The watcher's modules are loaded only then.
 */
async function watchCatalog(context: ServerContext, watch: NonNullable<ServeServerOptions['watch']>) {
  const { watchScenarios } = await import('../../storage/watch-scenarios.js');
  return watchScenarios({
    dir: watch.dir,
    onReload: (outcome) => {
      try {
        if (!outcome.ok) throw outcome.error;
        outcome.catalog.get(context.active.scenario);
        context.responder.replaceCatalog(outcome.catalog);
        watch.onReload({ ok: true, version: ++context.catalogVersion });
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
 * MSW handlers answer instead, as the Node host's routes (`mswRoutes`).
 * @throws UnknownScenarioError for an unknown scenario; the listen error when the port is taken.
 */
export async function startServeServer(options: ServeServerOptions): Promise<RunningServe> {
  const { engine = 'routes', watch, fuzz } = options;
  const context = createServerContext({ mode: 'serve', ...options });
  context.fuzz = fuzz;
  const scenarios = {
    responder: context.responder,
    activeScenario: () => context.active.scenario,
    deviceScenario: (request: ClientRequest) => context.deviceScenarios.of(request),
    faults: context.faults,
  };
  // The one routes options value of this mode; both engines are made from it.
  const planned: RoutesOptions = {
    scenarios,
    strictRequests: () => context.strictRequests,
    clock: context.responder.clock,
    fuzz,
  };
  const routes = await engineRoutes(engine, planned);
  const running = await listenForDevices(context, routes, options);
  // Not awaited: the server answers while the watcher loads and starts.
  const watcher = watch
    ? watchCatalog(context, watch).catch((error: Error) => {
        watch.onReload({ ok: false, error, version: context.catalogVersion });
        return undefined;
      })
    : undefined;
  return {
    running: {
      ...running,
      close: (graceMs?: number) => {
        void watcher?.then((w) => w?.close());
        return running.close(graceMs);
      },
    },
    context,
  };
}
