import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errorText } from '../../errors.js';
import { say } from '../../stderr.js';
import {
  failedPlan,
  isDeviceRoute,
  routeOf,
  type Plan,
  type Route,
  type RouteRequest,
  type Routes,
} from '../../routes/index.js';
import type { PassAnswer, PassPlan } from '../../record/proxy.js';
import type { ServerContext } from '../context.js';
import { NOT_SENT, answerFailure, writePlan } from './answer-writer.js';
import { journalExchange, type SentAnswer } from './journal-exchange.js';
import { logEntry, type RequestLogEntry } from './request-log.js';
import { routeRequestOf } from './route-request.js';

/** Options of {@link deviceListener}. */
export interface DeviceHostOptions {
  context: ServerContext;
  /** The routes that answer the device-facing surface (`createRoutes`, or with `--engine msw` the MSW handlers' `mswRoutes`). */
  routes: Routes;
  /** The admin app (admin API, dashboard, analytics, the 404 of other paths): made on first use. */
  adminApp: () => RequestListener | Promise<RequestListener>;
  /**
   * Carries out a `pass` plan: the recording proxy, which answers the request and resolves with what
   * it sent (see `PassAnswer`; a rejection: a fault of ours, answered 500).
   */
  pass?: (request: RouteRequest, res: ServerResponse, plan: PassPlan) => Promise<PassAnswer>;
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

/** Says once, on stderr, that mockvideo failed to answer a request (a fault of ours, never the client's); the request gets the routes' 500. */
function reportFailure(request: RouteRequest, error: unknown): void {
  say(
    `Failed to answer ${request.method} ${request.path}: ${errorText(error)}. It was answered 500; the server goes on. Please report this with the request.`,
  );
}

/**
 * The Node host of the device-facing surface, one pipeline for `serve`, `replay` and `record`:
 * read the request (`routeRequestOf`) → plan it with the routes (checks, findings, the answer, and
 * what was decided; a failure of theirs is their `failedPlan`) → carry out the plan (`writePlan`:
 * the headers of the one response step, after the planned delay; `reset`/`hang` close the
 * connection; `pass` goes to the recording proxy) → journal (requests to operations) and log, from
 * the plan and what was sent. What the routes leave (`none`: the admin API, the dashboard, other
 * paths) goes to the admin app, with its path normalised first so that no odd spelling of
 * `/__mockvideo` (`/%5F%5Fmockvideo/`) gets past the admin guard. A fault of mockvideo's own gives
 * that client a JSON 500, said once on stderr; the process and the other clients go on.
 */
export function deviceListener(options: DeviceHostOptions): RequestListener {
  const { context, routes, pass, onRequest } = options;
  let adminApp: RequestListener | Promise<RequestListener> | undefined;
  const toAdminApp = ({ req, res }: Exchange, route: Route) => {
    const ready = (adminApp ??= Promise.resolve(options.adminApp()).then((made) => (adminApp = made)));
    if (typeof ready === 'function') return void ready(req, res);
    ready.then(
      (made) => made(req, res),
      (error: Error) => answerFailure(req, res, route, new Error(`could not load its admin app: ${error.message}`)),
    );
  };
  const toAdminPath = (exchange: Exchange, route: Route) => {
    // The admin guard and Express see the normalised path (a trailing slash kept): no odd spelling gets past them.
    const { path, query } = exchange.request;
    const seen = route.path === '/' || !path.endsWith('/') ? route.path : `${route.path}/`;
    if (seen !== path) exchange.req.url = query ? `${seen}?${query}` : seen;
    toAdminApp(exchange, route);
  };

  /** Journals (a request to an operation) and logs one exchange once it ended: what was planned, what was `sent`. */
  const ended = ({ req, request, start, receivedAt }: Exchange, plan: Plan, sent: SentAnswer) => {
    const durationMs = performance.now() - start;
    const { route } = plan;
    if (route.kind === 'operation') {
      const target = { operation: route.operation, path: request.path, search: request.query };
      journalExchange(context, req, target, plan, receivedAt, durationMs, sent);
    }
    onRequest?.(
      logEntry(
        request.method,
        route.kind === 'operation' ? route.operation : route.path,
        sent.status,
        plan,
        durationMs,
      ),
    );
  };

  /** Writes a planned answer or drop now, a failure of ours while writing being that request's 500. */
  const write = (exchange: Exchange, plan: Extract<Plan, { kind: 'answer' | 'drop' }>): SentAnswer => {
    const { req, res, request } = exchange;
    try {
      return writePlan(req, res, plan);
    } catch (error) {
      reportFailure(request, error);
      answerFailure(req, res, plan.route, error);
      return NOT_SENT;
    }
  };

  const carry = (exchange: Exchange, plan: Plan) => {
    const { res, request } = exchange;
    if (plan.kind === 'none')
      return isDeviceRoute(plan.route) ? toAdminApp(exchange, plan.route) : toAdminPath(exchange, plan.route);
    if (plan.kind === 'pass') {
      if (!pass) return toAdminApp(exchange, plan.route);
      return void pass(request, res, plan).then(
        (sent) => ended(exchange, sent.match ? { ...plan, match: sent.match } : plan, { ...sent, body: '' }),
        (error: unknown) => {
          reportFailure(request, error);
          answerFailure(exchange.req, res, plan.route, error);
          ended(exchange, plan, NOT_SENT);
        },
      );
    }
    // The client left while the plan was made (the MSW adapter's wait, cut short): nothing left to send.
    if (res.destroyed) return ended(exchange, plan, NOT_SENT);
    if (plan.delayMs <= 0) return ended(exchange, plan, write(exchange, plan));
    let sent = NOT_SENT;
    const timer = setTimeout(() => (sent = write(exchange, plan)), plan.delayMs);
    res.once('close', () => {
      clearTimeout(timer);
      ended(exchange, plan, res.writableFinished ? sent : NOT_SENT);
    });
  };

  return (req, res) => {
    const request = routeRequestOf(req, res);
    const exchange: Exchange = { req, res, request, start: performance.now(), receivedAt: Date.now() };
    const failed = (error: unknown) => {
      reportFailure(request, error);
      carry(exchange, failedPlan(routeOf(request.path), error));
    };
    let plan: Plan | Promise<Plan>;
    try {
      plan = routes(request);
    } catch (error) {
      return failed(error);
    }
    if (!(plan instanceof Promise)) return carry(exchange, plan);
    plan.then((ready) => carry(exchange, ready), failed);
  };
}
