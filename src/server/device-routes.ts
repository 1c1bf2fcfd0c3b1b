import type express from 'express';
import { PluginPackageIndex } from '../media/plugin-index.js';
import type { ScenarioCatalog } from '../scenarios/index.js';
import { mediaRoutes } from './media-routes.js';
import { upgradeRoute } from './upgrade-route.js';

/** Options of {@link deviceRoutes}. */
export interface DeviceRoutesOptions {
  catalog: ScenarioCatalog;
  /** The scenario that answers `meta/upgrade` when the request does not pick one. */
  activeScenario: () => string;
}

/**
 * The middlewares `serve` runs before the scenario handlers so a device works offline: placeholder
 * images, plugin and provider packages (see {@link mediaRoutes}) and `GET /api/g1/meta/upgrade`
 * (see {@link upgradeRoute}). Plugin packages of every scenario of `catalog` are built once, here.
 */
export function deviceRoutes(options: DeviceRoutesOptions): express.RequestHandler[] {
  return [mediaRoutes(new PluginPackageIndex(options.catalog)), upgradeRoute(options.catalog, options.activeScenario)];
}
