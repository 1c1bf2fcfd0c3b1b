/**
 * The checks every request to the device-facing surface meets before it is planned, in any adapter.
 * Pure, any runtime.
 * @module
 */
import { noHostHeader, refusedForwarding, targetTooLong } from './errors.js';
import type { Route } from '../normalise/path.js';
import { MAX_URL_LENGTH, type Answer, type RouteRequest } from './request.js';

/** Whether a route is of the device-facing surface (answered by the routes, not by the host's own app). */
export function isDeviceRoute(route: Route): boolean {
  return route.kind !== 'admin' && route.kind !== 'other';
}

/**
 * 414 for a target over {@link MAX_URL_LENGTH} characters (any route); for a route of the
 * device-facing surface, 400 without an origin (no valid `Host`), then 403 when `refuse` names a
 * reason for a route under `/api/g1` (see `RoutesOptions.refuse`). `undefined`: go on.
 */
export function precheck(
  request: RouteRequest,
  route: Route,
  refuse?: (request: RouteRequest) => string | undefined,
): Answer | undefined {
  const length = request.path.length + (request.query ? request.query.length + 1 : 0);
  if (length > MAX_URL_LENGTH) return targetTooLong(length, MAX_URL_LENGTH);
  if (!isDeviceRoute(route)) return undefined;
  if (!request.origin) return noHostHeader();
  if (refuse && (route.kind === 'operation' || route.kind === 'upgrade' || route.kind === 'unknown-operation')) {
    const reason = refuse(request);
    if (reason !== undefined) return refusedForwarding(reason);
  }
  return undefined;
}
