/**
 * The MSW adapter of the routes: one `http.all` handler that plans each request it takes with the
 * routes and answers as planned. What the routes decided travels with the request, as fields of
 * the fetch `Request` msw hands the resolver (Polly's `pollyRequest.action`): the plan is set there
 * as soon as it is made, so whoever asked msw (the Node host's `--engine msw`, a replay fallback)
 * reads the plan from the request it made, never from the answer's headers. Any runtime.
 * @module
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { MockvideoError } from '../errors.js';
import {
  createRoutes,
  deviceHeaders,
  headerRecord,
  routeOf,
  routesCover,
  type Plan,
  type RouteRequest,
  type RoutesOptions,
} from '../routes/index.js';

/** The field of a fetch `Request` that carries mockvideo's reading of it and the plan made for it. */
const CARRIED = Symbol.for('mockvideo.carried');

/** What a fetch `Request` carries for mockvideo: the request shape it was made from (by the Node host), the plan the routes made. */
interface Carried {
  routeRequest?: RouteRequest;
  plan?: Plan;
}

type CarrierRequest = Request & { [CARRIED]?: Carried };

/**
 * Marks `request` (a fetch `Request` made from `shape`) as carrying `shape`: the routes then read
 * `shape` (its method, its device's `address`, its abort signal) instead of what a fetch `Request`
 * can say. Returns `request`.
 */
export function carryRouteRequest(request: Request, shape: RouteRequest): Request {
  ((request as CarrierRequest)[CARRIED] ??= {}).routeRequest = shape;
  return request;
}

/** The plan the routes made for `request` (one the MSW adapter answered or passed), or `undefined` when none did. */
export function planOf(request: Request): Plan | undefined {
  return (request as CarrierRequest)[CARRIED]?.plan;
}

/**
 * The request shape of the routes, read from msw's `Request`, below `basePath` (the path of the
 * handlers' `baseUrl`, `''` for none): the one it carries when the Node host made it (see
 * {@link carryRouteRequest}), else its method, path, raw query, origin, headers and abort signal.
 */
function routeRequest(request: Request, basePath: string): RouteRequest {
  const carried = (request as CarrierRequest)[CARRIED]?.routeRequest;
  if (carried) return carried;
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname.slice(basePath.length) || '/',
    query: url.search.slice(1),
    origin: url.origin,
    headers: headerRecord(request.headers),
    signal: request.signal,
  };
}

/** Resolves after `ms` milliseconds, or as soon as `signal` aborts (the client went away). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return delay(ms);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/**
 * A plan as msw's answer to `request`: after its delay (cut short when the client goes away), the
 * answer (its bytes as they are, never re-serialised, with the headers of the one response step,
 * `deviceHeaders`; no body for HEAD) or a network error (`drop`: `reset`, `hang`); `undefined` (not
 * handled here: the next handler, or msw's unhandled-request option) for `pass` and `none`. The
 * plan is set on `request` first (see {@link planOf}).
 */
async function planResponse(plan: Plan, request: Request, signal: AbortSignal | undefined) {
  ((request as CarrierRequest)[CARRIED] ??= {}).plan = plan;
  if (plan.kind === 'pass' || plan.kind === 'none') return undefined;
  if (plan.delayMs > 0) await wait(plan.delayMs, signal);
  if (plan.kind === 'drop') return HttpResponse.error();
  const { status, body } = plan.answer;
  return new HttpResponse(request.method === 'HEAD' ? null : (body as BodyInit), {
    status,
    headers: deviceHeaders(plan.answer.headers, plan),
  });
}

/** The path of `baseUrl` (`''` for none or `/`), and whether a request URL is on it (its origin, and below its path). */
function onBase(baseUrl: string | undefined): { basePath: string; inScope: (url: URL) => boolean } {
  if (baseUrl === undefined) return { basePath: '', inScope: () => true };
  if (!URL.canParse(baseUrl))
    throw new MockvideoError(
      'MV_USAGE',
      `baseUrl "${baseUrl}" is no absolute URL. Give the origin the app calls, e.g. 'https://api.example.com', or leave baseUrl out to answer any origin.`,
    );
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    basePath,
    inScope: (url) => url.origin === base.origin && (basePath === '' || url.pathname.startsWith(`${basePath}/`)),
  };
}

/**
 * The MSW adapter of the routes made with `options` (see `createRoutes`): one handler that matches
 * only the requests the routes take (`routesCover`: the service's paths under `/api/g1`, also below
 * `/scenarios/<name>`, and the downloads under `/__mockvideo/`) on `baseUrl` (an origin with an
 * optional base path, e.g. `https://api.example.com` or `https://example.com/service`; default: any
 * origin), plans each with the routes and answers as planned. Every other request is left to the
 * next handler, or to msw's unhandled-request option (`onUnhandledRequest` in msw 2,
 * `onUnhandledFrame` in msw 3). The same code for msw 2 and 3: a custom predicate, `http`,
 * `HttpResponse`, `delay`.
 * @throws MockvideoError (`MV_USAGE`) for a `baseUrl` that is no absolute URL.
 */
export function routeHandlers(options: RoutesOptions, baseUrl?: string): HttpHandler[] {
  const routes = createRoutes(options);
  const { basePath, inScope } = onBase(baseUrl);
  const covers = ({ request }: { request: Request }) => {
    const carried = (request as CarrierRequest)[CARRIED]?.routeRequest;
    if (carried) return routesCover(options, routeOf(carried.path));
    const url = new URL(request.url);
    return inScope(url) && routesCover(options, routeOf(url.pathname.slice(basePath.length)));
  };
  return [
    http.all(covers, async ({ request }) => {
      const shape = routeRequest(request, basePath);
      return planResponse(await routes(shape), request, shape.signal);
    }),
  ];
}
