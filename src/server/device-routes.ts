import type express from 'express';
import { AnalyticsStore } from '../analytics/index.js';
import { PluginPackageIndex } from '../media/plugin-index.js';
import type { ScenarioCatalog } from '../scenarios/index.js';
import { analyticsRoutes } from './analytics-routes.js';
import { mediaRoutes } from './media-routes.js';
import { upgradeRoute } from './upgrade-route.js';

/** Options of {@link deviceRoutes}. */
export interface DeviceRoutesOptions {
  /** The scenarios, or a getter read per request when they can be reloaded. */
  catalog: ScenarioCatalog | (() => ScenarioCatalog);
  /** The scenario that answers `meta/upgrade` when the request does not pick one. */
  activeScenario: () => string;
  /** More paths the analytics sink accepts POSTs on, besides `/__mockvideo/analytics` (`--analytics-path`). */
  analyticsPaths?: readonly string[];
  /** Where analytics records are kept; default: a new store of 1,000. */
  analytics?: AnalyticsStore;
}

/**
 * The middlewares `serve` runs before the scenario handlers so a device works offline: placeholder
 * images, plugin and provider packages (see {@link mediaRoutes}), `GET /api/g1/meta/upgrade`
 * (see {@link upgradeRoute}) and the analytics sink (see {@link analyticsRoutes}). Plugin packages
 * of every scenario of the catalog are built once per catalog (again after a reload).
 */
export function deviceRoutes(options: DeviceRoutesOptions): express.RequestHandler[] {
  const catalog = typeof options.catalog === 'function' ? options.catalog : () => options.catalog as ScenarioCatalog;
  let built: { catalog: ScenarioCatalog; index: PluginPackageIndex } | undefined;
  const packages = () => {
    const current = catalog();
    if (built?.catalog !== current) built = { catalog: current, index: new PluginPackageIndex(current) };
    return built.index;
  };
  packages();
  return [
    mediaRoutes(packages),
    upgradeRoute(catalog, options.activeScenario),
    analyticsRoutes(options.analytics ?? new AnalyticsStore(), options.analyticsPaths),
  ];
}
