import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Finding } from '../../findings/index.js';
import {
  deviceHeaders,
  failedPlan,
  isDeviceRoute,
  routeOf,
  type Plan,
  type Route,
  type RouteRequest,
  type Routes,
} from '../../routes/index.js';
import { journalViewOf } from '../../journal/journal-view.js';
import type { ServerContext } from '../context.js';
import { NOT_SENT, answerFailure, writePlan } from './answer-writer.js';
import { captureBody, journalExchange, type SentAnswer } from './journal-exchange.js';
import { logEntry, type RequestLogEntry } from './request-log.js';
import { routeRequestOf } from './route-request.js';

/** Options of {@link deviceListener}. */
export interface DeviceHostOptions {
  context: ServerContext;
  /** The routes that answer the device-facing surface (`createRoutes`, or with `--engine msw` the MSW handlers' `mswRoutes`). */
  routes: Routes;
  /** The Express host (admin API, dashboard, analytics, the 404 of other paths): made on first use. */
  host: () => RequestListener | Promise<RequestListener>;
  /** Carries out a `pass` plan: the recording proxy, which answers the request (a rejection: a fault of ours, answered 500). */
  pass?: (req: IncomingMessage, res: ServerResponse, plan: Extract<Plan, { kind: 'pass' }>) => Promise<void>;
  /** Hears each request once answered (or the client went away). */
  onRequest?: (entry: RequestLogEntry) => void;
}

/** One request on its way: the Node objects, the routes' reading of it, and when it came (`performance.now()` and Unix milliseconds). */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  request: RouteRequest;
  start: number;
  receivedAt: number;
}

/**
 * The Node host of the device-facing surface, one pipeline for `serve`, `replay` and `record`:
 * read the request (`routeRequestOf`) → plan it with the routes (checks, findings, the answer; a
 * failure of theirs is their `failedPlan`) → write what they planned (`writePlan`: the headers of
 * `deviceHeaders`, after the planned delay; `reset`/`hang` close the connection) → journal
 * (requests to operations) and log. `pass` goes to the recording proxy; what the routes leave
 * (`none`: the admin API, the dashboard, other paths) goes to the Express host, with its path
 * normalised first so that no odd spelling of `/__mockvideo` (`/%5F%5Fmockvideo/`) gets past the
 * admin guard. A fault of mockvideo's own gives that client a JSON 500; the others go on.
 */
export function deviceListener(options: DeviceHostOptions): RequestListener {
  const { context, routes, pass, onRequest } = options;
  let host: RequestListener | Promise<RequestListener> | undefined;
  const toHost = ({ req, res }: Exchange) => {
    const ready = (host ??= Promise.resolve(options.host()).then((made) => (host = made)));
    if (typeof ready === 'function') return void ready(req, res);
    ready.then(
      (made) => made(req, res),
      (error: Error) => answerFailure(req, res, new Error(`could not load its HTTP host: ${error.message}`)),
    );
  };
  const toOwnHost = (exchange: Exchange, route: Route) => {
    // The admin guard and Express see the normalised path (a trailing slash kept): no odd spelling gets past them.
    const { path, query } = exchange.request;
    const seen = route.path === '/' || !path.endsWith('/') ? route.path : `${route.path}/`;
    if (seen !== path) exchange.req.url = query ? `${seen}?${query}` : seen;
    toHost(exchange);
  };

  /** Journals (a request to an operation) and logs one exchange once it ended, with what was `sent`. */
  const ended = (
    { req, request, start, receivedAt }: Exchange,
    route: Route,
    findings: readonly Finding[],
    sent: SentAnswer,
  ) => {
    const durationMs = performance.now() - start;
    if (route.kind === 'operation') {
      const target = { operation: route.operation, path: request.path, search: request.query };
      journalExchange(context, req, target, findings, receivedAt, durationMs, sent);
    }
    const what = route.kind === 'operation' ? route.operation : route.path;
    onRequest?.(logEntry(request.method, what, sent.status, sent.headers, durationMs));
  };
  /** Journals and logs the exchange when the response closes (answered, or the client went away); `sent` tells what was sent. */
  const observe = (exchange: Exchange, route: Route, findings: readonly Finding[], sent: () => SentAnswer) => {
    if (route.kind === 'operation' || onRequest)
      exchange.res.once('close', () => ended(exchange, route, findings, sent()));
  };

  const carry = (exchange: Exchange, plan: Plan) => {
    const { req, res } = exchange;
    if (plan.kind === 'none') return isDeviceRoute(plan.route) ? toHost(exchange) : toOwnHost(exchange, plan.route);
    if (plan.kind === 'pass') {
      if (!pass) return toHost(exchange);
      // Set first, so that the proxy's own headers join them and the journal reads them all.
      for (const [name, value] of Object.entries(deviceHeaders({}, plan))) res.setHeader(name, value);
      const body = captureBody(res);
      observe(exchange, plan.route, plan.findings, () => {
        // The proxy hands over its redacted view of what it sent: then the raw body is not read.
        const view = journalViewOf(res);
        return {
          status: res.headersSent ? res.statusCode : 0,
          headers: res.getHeaders(),
          body: view ? '' : body(),
          view,
        };
      });
      return void pass(req, res, plan).catch((error: unknown) => answerFailure(req, res, error));
    }
    if (plan.delayMs <= 0) return ended(exchange, plan.route, plan.findings, writePlan(req, res, plan));
    let sent = NOT_SENT;
    const timer = setTimeout(() => (sent = writePlan(req, res, plan)), plan.delayMs);
    res.once('close', () => clearTimeout(timer));
    observe(exchange, plan.route, plan.findings, () => (res.writableFinished ? sent : NOT_SENT));
  };

  return (req, res) => {
    const exchange: Exchange = {
      req,
      res,
      request: routeRequestOf(req),
      start: performance.now(),
      receivedAt: Date.now(),
    };
    const failed = (error: unknown) => carry(exchange, failedPlan(routeOf(exchange.request.path), error));
    let plan: Plan | Promise<Plan>;
    try {
      plan = routes(exchange.request);
    } catch (error) {
      return failed(error);
    }
    if (!(plan instanceof Promise)) return carry(exchange, plan);
    plan.then((ready) => carry(exchange, ready), failed);
  };
}
