import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RouteRequest } from '../../routes/index.js';

/** The origin-form (path and query) of a request target; an absolute-form one (`http://host/api/g1/meta/cp`) by its path, `/` when it does not parse. */
function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return '/';
  }
}

/**
 * The origin a request was made to (`http://127.0.0.1:8787`): the connection's scheme and the
 * `Host` header, normalised by `URL`; `''` without a `Host` header or with one that does not parse.
 */
function originOf(req: IncomingMessage): string {
  if (req.headers.host === undefined) return '';
  try {
    return new URL(`${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host}`).origin;
  } catch {
    return '';
  }
}

/**
 * The routes' request shape of a Node request: its method, the path and raw query of its target
 * (routed by its path: the host an absolute-form target names is never asked), the origin from
 * `Host`, its headers as Node gives them, and the connection's remote address.
 */
export function routeRequestOf(req: IncomingMessage): RouteRequest {
  const target = originForm(req.url ?? '/');
  const at = target.indexOf('?');
  return {
    method: req.method ?? 'GET',
    path: at < 0 ? target : target.slice(0, at),
    query: at < 0 ? '' : target.slice(at + 1),
    origin: originOf(req),
    headers: req.headers,
    address: req.socket.remoteAddress,
  };
}
