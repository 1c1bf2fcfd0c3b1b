import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { FINDINGS_HEADER, bodyBytes, headerRecord, type Plan, type RouteRequest, type Routes } from '../routes/index.js';

/** The request shape of the routes, read from msw's `Request`. */
export function routeRequest(request: Request): RouteRequest {
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname, query: url.search.slice(1), origin: url.origin, headers: headerRecord(request.headers) };
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
  const headers = new Headers(plan.answer.headers);
  if (plan.route.kind === 'operation') headers.set(FINDINGS_HEADER, String(plan.findings.length));
  return new HttpResponse(method === 'HEAD' ? null : (bodyBytes(plan.answer) as BodyInit), { status: plan.answer.status, headers });
}

/**
 * The MSW adapter of the routes: one handler for every path on `baseUrl` (default: any origin) that
 * plans the request with `routes` and answers as planned; what the routes leave (`none`, `pass`)
 * goes on to the next handler, or to msw's `onUnhandledRequest`.
 */
export function routeHandlers(routes: Routes, baseUrl?: string): HttpHandler[] {
  const path = baseUrl ? `${baseUrl.replace(/\/+$/, '')}/*` : '*';
  return [http.all(path, async ({ request }) => planResponse(await routes(routeRequest(request)), request.method))];
}
