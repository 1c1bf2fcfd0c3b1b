import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import {
  createRoutes,
  deviceHeaders,
  headerRecord,
  routeOf,
  type Plan,
  type RouteRequest,
  type RoutesOptions,
} from '../routes/index.js';
import { routesCover } from '../routes/cover.js';
import { MockvideoError } from '../errors.js';

/** The request shape of the routes, read from msw's `Request`. */
export function routeRequest(request: Request): RouteRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: url.search.slice(1),
    origin: url.origin,
    headers: headerRecord(request.headers),
  };
}

/**
 * A plan as msw's answer: after its delay, the answer (its bytes as they are, never re-serialised,
 * with `x-mockvideo-findings` on a request to an operation; no body for HEAD) or a network error
 * (`reset`, `hang`); `undefined` (not handled here) for `pass` and `none`.
 */
export async function planResponse(plan: Plan, method: string): Promise<Response | undefined> {
  if (plan.kind === 'pass' || plan.kind === 'none') return undefined;
  if (plan.delayMs > 0) await delay(plan.delayMs);
  if (plan.kind === 'drop') return HttpResponse.error();
  const { status, body } = plan.answer;
  return new HttpResponse(method === 'HEAD' ? null : (body as BodyInit), {
    status,
    headers: deviceHeaders(plan.answer.headers, plan),
  });
}

/** Whether a request URL is on `baseUrl` (its origin, and its path when it has one); any URL without a `baseUrl`. */
function onBase(baseUrl: string | undefined): (url: URL) => boolean {
  if (baseUrl === undefined) return () => true;
  if (!URL.canParse(baseUrl))
    throw new MockvideoError(
      'MV_USAGE',
      `baseUrl "${baseUrl}" is no absolute URL. Give the origin the app calls, e.g. 'https://api.example.com', or leave baseUrl out to answer any origin.`,
    );
  const base = new URL(baseUrl);
  const path = base.pathname.replace(/\/+$/, '');
  return (url) =>
    url.origin === base.origin && (path === '' || url.pathname === path || url.pathname.startsWith(`${path}/`));
}

/**
 * The MSW adapter of the routes made with `options` (see `createRoutes`): one handler that matches
 * only the requests the routes take (`routesCover`: the service's paths under `/api/g1`, also below
 * `/scenarios/<name>`, and the downloads under `/__mockvideo/`) on `baseUrl` (an origin, e.g.
 * `https://api.example.com`; default: any origin), plans each with the routes and answers as
 * planned. Every other request is left to the next handler, or to msw's unhandled-request option
 * (`onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3). The same code for msw 2 and 3: a
 * custom predicate, `http`, `HttpResponse`, `delay`.
 * @throws MockvideoError (`MV_USAGE`) for a `baseUrl` that is no absolute URL.
 */
export function routeHandlers(options: RoutesOptions, baseUrl?: string): HttpHandler[] {
  const routes = createRoutes(options);
  const inScope = onBase(baseUrl);
  const covers = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    return inScope(url) && routesCover(options, request.method, routeOf(url.pathname));
  };
  return [http.all(covers, async ({ request }) => planResponse(await routes(routeRequest(request)), request.method))];
}
