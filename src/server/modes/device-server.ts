/**
 * What `serve` and `replay` share around their routes: the settings of their common flags, the
 * Node host with the admin app (admin API, dashboard, analytics sink) behind it, and listening
 * for devices (HTTP and HTTPS).
 * @module
 */
import type { RequestListener } from 'node:http';
import { createRoutes, type Routes, type RoutesOptions } from '../../routes/index.js';
import type { LiveSettings, ServerContext } from '../context.js';
import { deviceListener, type DeviceHostOptions } from '../host/device-host.js';
import type { RequestLogEntry } from '../host/request-log.js';
import { startServers, type ListenPlan, type StartedServers } from '../listen/start-servers.js';

/** Which engine answers the device-facing surface in the Node host: the routes (default), or the generated MSW handlers through msw's `getResponse` (`mswRoutes`: slower, same answers). */
type Engine = 'routes' | 'msw';

/**
 * The routes of a mode's one routes options value, by `engine`: `createRoutes(options)`, or the MSW
 * handlers of the same options (`routeHandlers(options)`, what test authors import) asked through
 * msw (`mswRoutes`; msw is loaded then). A flag the routes read is a field of `options`: no engine
 * has a branch of its own.
 */
export async function engineRoutes(engine: Engine, options: RoutesOptions): Promise<Routes> {
  if (engine === 'routes') return createRoutes(options);
  const [{ mswRoutes }, { routeHandlers }] = await Promise.all([
    import('../host/msw-engine.js'),
    import('../../msw/adapter.js'),
  ]);
  return mswRoutes(routeHandlers(options));
}

/**
 * The settings of the flags `serve` and `replay` share (declared once, in `src/cli/server-options.ts`):
 * the live state's ({@link LiveSettings}), where and how to listen ({@link ListenPlan}), and these.
 */
export interface ServerSettings extends LiveSettings, ListenPlan {
  /** `--scenarios-dir`: scenario files added to the shipped ones. */
  scenariosDir?: string;
  /** `--engine`; default `routes`. `msw` loads msw before listening. */
  engine?: Engine;
  /** `--analytics-path`: more paths the analytics sink takes records on, besides `/__mockvideo/analytics`. */
  analyticsPaths?: readonly string[];
  /** Hears each answered request (the request log). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Starts the listening servers instead of {@link startServers} (a test that wraps the listener). */
  listen?: (listener: RequestListener) => Promise<StartedServers>;
}

/**
 * Serves `routes` for `context` in the Node host (see `deviceListener`; `pass` carries out `pass`
 * plans) and listens for devices as `settings` say (see {@link startServers}), telling `context` how
 * devices reach it (`GET /health` lists them). What the routes leave goes to the admin app (see
 * `createApp`: admin API, dashboard, the analytics sink on `/__mockvideo/analytics` and
 * `settings.analyticsPaths`), loaded with Express on the first request that needs it. `close()`
 * first ends the long-lived answers (the dashboard's event streams), which would otherwise hold the
 * shutdown up.
 * @throws MockvideoError (`MV_USAGE`) for a port in use, a host this machine does not have, or bad `--cert`/`--key`.
 */
export async function listenForDevices(
  context: ServerContext,
  routes: Routes,
  settings: ServerSettings,
  pass?: DeviceHostOptions['pass'],
): Promise<StartedServers> {
  const adminApp = async () => {
    const [{ createApp }, { analyticsRoutes }, { AnalyticsStore }] = await Promise.all([
      import('../admin/app.js'),
      import('../admin/analytics-routes.js'),
      import('../../analytics/store.js'),
    ]);
    const sink = analyticsRoutes(new AnalyticsStore(), settings.analyticsPaths ?? [], context);
    return createApp({ context, before: [sink] });
  };
  const listener = deviceListener({ context, routes, adminApp, pass, onRequest: settings.onRequest });
  const started = await (settings.listen ? settings.listen(listener) : startServers(listener, settings));
  context.deviceUrls = started.deviceUrls;
  return {
    ...started,
    close: (graceMs?: number) => {
      context.closing.abort();
      return started.close(graceMs);
    },
  };
}
