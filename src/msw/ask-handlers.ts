/**
 * Asking msw handlers for a request of the routes' shape, and reading back what they planned: the
 * one way a Node host (`--engine msw`) or a replay fallback runs MSW handlers. Any runtime.
 * @module
 */
import { getResponse, type HttpHandler } from 'msw';
import { flatValue } from '../contract/http-wire.js';
import { routeOf, type Answer, type Plan, type RouteRequest } from '../routes/index.js';
import { carryRouteRequest, planOf } from './adapter.js';

/** Methods a fetch `Request` refuses to carry (the Fetch standard's forbidden methods), and HEAD (asked as GET, see {@link askHandlers}). */
const ASKED_AS_GET = new Set(['HEAD', 'CONNECT', 'TRACE', 'TRACK']);

/** A fetch `Request` made from `request`, carrying it (see `carryRouteRequest`): its target when that parses as a URL. */
function fetchRequestOf(request: RouteRequest): Request {
  const target = `${request.origin}${request.path}${request.query ? `?${request.query}` : ''}`;
  const url = URL.canParse(target) ? target : `${URL.canParse(request.origin) ? request.origin : 'http://localhost'}/`;
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.push([name, flatValue(value)!]);
  const method = ASKED_AS_GET.has(request.method.toUpperCase()) ? 'GET' : request.method;
  const init: RequestInit = { method, headers };
  if (request.signal) init.signal = request.signal;
  return carryRouteRequest(new Request(url, init), request);
}

/** An answer of msw as the routes' `Answer`: its status, headers and body bytes. */
async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/**
 * What msw `handlers` make of `request`, as a plan, `undefined` when none takes it:
 * - from the MSW adapter of the routes, the plan it made (read from the request, see `planOf`), with
 *   the answer's bytes as msw sent them, and no wait left (the adapter waited; when the client went
 *   away meanwhile, the plan as made: there is nothing left to send);
 * - from another handler (a test author's fallback), its answer, or a `drop` (`reset`) for a network error.
 *
 * HEAD, and the methods a fetch `Request` cannot carry (`TRACE`, …), are asked as GET: the routes
 * read the request's own method from the shape it carries, and the host sends no body for HEAD.
 * Rejects when the handlers fail.
 */
export async function askHandlers(handlers: readonly HttpHandler[], request: RouteRequest): Promise<Plan | undefined> {
  const asked = fetchRequestOf(request);
  const answered = await getResponse([...handlers], asked);
  const plan = planOf(asked);
  if (plan) {
    if (plan.kind === 'pass' || plan.kind === 'none' || request.signal?.aborted) return plan;
    if (plan.kind === 'drop' || !answered) return { ...plan, delayMs: 0 };
    return { ...plan, delayMs: 0, answer: await answerOf(answered) };
  }
  if (!answered) return undefined;
  const route = routeOf(request.path);
  if (answered.type === 'error') return { kind: 'drop', route, findings: [], delayMs: 0, fault: 'reset' };
  return { kind: 'answer', route, findings: [], delayMs: 0, answer: await answerOf(answered) };
}
