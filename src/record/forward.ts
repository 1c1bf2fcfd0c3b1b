/**
 * What the recorder forwards, both ways, as data: the request it sends the upstream for one the
 * routes passed on, and the headers of the upstream's answer it passes back. Pure.
 * @module
 */
import { API_PREFIX } from '../contract/core.js';
import { forwardPath, type Route } from '../normalise/path.js';
import type { RouteRequest } from '../routes/request.js';
import { dropped, flat } from './wire.js';

/** One request as the recorder forwards it (and records it). */
export interface ForwardedRequest {
  /** Upper-case method, `GET` or `HEAD`. */
  method: string;
  /** The route's own path, `/api/g1/<operation>` (see `forwardPath`). */
  path: string;
  /** The operation, `meta/cp` or `meta/upgrade`. */
  operation: string;
  /** The raw query as sent, without `?` (`''` without one). */
  search: string;
  /** What is asked of the upstream below its own path prefix: `path` and the query as sent (order, repeated `ref` and encoding kept). */
  target: string;
  /** The request's headers as they came (one string each, lower-case names): what is recorded. */
  requestHeaders: Record<string, string>;
  /** The headers sent to the upstream: the request's without the hop-by-hop ones, `host` the upstream's. */
  headers: Record<string, string>;
}

/**
 * What the recorder sends its upstream for a request (of the routes' shape) the routes passed on
 * to `route`: the route's own path (so `/api/g1/./meta/setting` goes as `/api/g1/meta/setting`, and
 * nothing reaches a path outside `/api/g1`), the query as sent, the headers without the hop-by-hop
 * ones and with `upstreamHost` as `host` (the Host header and an absolute-form target are never trusted).
 * @throws Error for a route that is never forwarded (not an operation nor `meta/upgrade`): a fault of ours.
 * @example forwardedRequest({ method: 'GET', path: '/api/g1/./meta/cp', query: 'a=1', … }, routeOf('/api/g1/./meta/cp'), 'api.example.com').target // '/api/g1/meta/cp?a=1'
 */
export function forwardedRequest(
  request: Pick<RouteRequest, 'method' | 'query' | 'headers'>,
  route: Route,
  upstreamHost: string,
): ForwardedRequest {
  const path = forwardPath(route);
  if (path === undefined) throw new Error(`the routes passed ${route.path} on, which is not an operation`);
  const { query } = request;
  const requestHeaders = flat(request.headers);
  const unforwarded = dropped(requestHeaders);
  const headers = Object.fromEntries(Object.entries(requestHeaders).filter(([name]) => !unforwarded.has(name)));
  return {
    method: request.method.toUpperCase(),
    path,
    operation: path.slice(API_PREFIX.length + 1),
    search: query,
    target: query ? `${path}?${query}` : path,
    requestHeaders,
    headers: { ...headers, host: upstreamHost },
  };
}

/**
 * The headers of the upstream's answer passed back to the client as they came (`raw`: Node's form,
 * names as sent), without the hop-by-hop ones and those its `Connection` header names.
 */
export function passedBackHeaders(
  raw: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const unsent = dropped(flat(raw));
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined && !unsent.has(name.toLowerCase())) out[name] = value;
  return out;
}
