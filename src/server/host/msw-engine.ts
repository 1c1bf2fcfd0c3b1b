import type { HttpHandler } from 'msw';
import type { Clock } from '../../clock/clock.js';
import { queryFindings } from '../../findings/index.js';
import { handlersPlan } from '../../msw/replay-handlers.js';
import {
  RECORD_MISSING_MARKS,
  hasBody,
  isDeviceRoute,
  precheck,
  routeOf,
  type RouteRequest,
  type Routes,
} from '../../routes/index.js';

/** Options of {@link mswRoutes}. */
export interface MswRoutesOptions {
  /** The clock the `_ts` finding checks against (the server's `--clock`). */
  clock: Clock;
  /** The routes' `refuse` check (see `RoutesOptions.refuse`): `--record-missing`'s Host/Origin guard. */
  refuse?: ((request: RouteRequest) => string | undefined) | undefined;
  /** `--record-missing`: what no handler answers is passed to the recording proxy. */
  recordMissing?: boolean;
}

/**
 * `--engine msw`: the generated MSW handlers (the ones `createHandlers` / `createReplayHandlers`
 * give test authors) as the routes of the Node host, through msw's own `getResponse` (msw 2 and 3
 * alike). Slower than the default engine, same answers. The routes' checks (`precheck`) come first;
 * then the handlers' answer is planned with the request's contract findings (see `handlersPlan`; a
 * network error is a `drop`). A request no handler answers is passed on (`--record-missing`) or left
 * to the Express host (`none`); a failure of the handlers rejects, which the host answers with the
 * routes' 500.
 */
export function mswRoutes(handlers: readonly HttpHandler[], options: MswRoutesOptions): Routes {
  return async (request) => {
    const route = routeOf(request.path);
    const refused = precheck(request, route, options.refuse);
    if (refused) return { kind: 'answer', route, findings: [], delayMs: 0, answer: refused };
    if (!isDeviceRoute(route)) return { kind: 'none', route, findings: [] };
    const findings =
      route.kind === 'operation'
        ? queryFindings(route.operation, request.query, hasBody(request.headers), options.clock.nowSeconds())
        : [];
    // HEAD is asked as GET, as the routes answer it: the host writes the GET answer's headers
    // (its content-length too) and drops the body; msw's own HEAD answer has no body to measure.
    const asked = request.method === 'HEAD' ? { ...request, method: 'GET' } : request;
    const planned = await handlersPlan(handlers, asked, route, findings);
    if (planned) return planned;
    return options.recordMissing
      ? { kind: 'pass', route, findings, marks: RECORD_MISSING_MARKS }
      : { kind: 'none', route, findings };
  };
}
