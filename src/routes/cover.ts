import type { Route } from './path.js';
import type { RoutesOptions } from './plan.js';

/**
 * Whether the routes made with `options` (see `createRoutes`) take a request of `method` to
 * `route`: answer it or pass it on, anything but `none`. The operations, `meta/upgrade` and the
 * rest of `/api/g1` (each also below `/scenarios/<name>`) with scenarios, recordings or the
 * recorder; the downloads under `/__mockvideo/` (GET and HEAD) with scenarios; nothing else.
 * The MSW handlers match only these requests, so that msw's unhandled-request option hears every
 * other one. Pure, any runtime.
 */
export function routesCover(options: RoutesOptions, method: string, route: Route): boolean {
  switch (route.kind) {
    case 'operation':
      return Boolean(options.scenarios || options.replay || options.record || options.fuzz);
    case 'upgrade':
    case 'unknown-operation':
      return true;
    case 'media':
    case 'plugins':
    case 'apk':
      return Boolean(options.scenarios) && (method === 'GET' || method === 'HEAD');
    default:
      return false;
  }
}
