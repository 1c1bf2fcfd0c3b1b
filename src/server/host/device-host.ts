/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { queryFindings, type Finding } from '../../findings/index.js';
import {
  DEVICE_ANSWER_HEADERS,
  FINDINGS_HEADER,
  bodyBytes,
  bodyText,
  hasBody,
  isDeviceRoute,
  ourFault,
  precheck,
  routeOf,
  type Answer,
  type Plan,
  type Route,
  type RouteRequest,
  type Routes,
} from '../../routes/index.js';
import { journalViewOf } from '../../journal/journal-view.js';
import type { ServerContext } from '../context.js';
import { captureBody, journalExchange, type OperationTarget, type SentAnswer } from './journal-exchange.js';
import { logEntry, type RequestLogEntry } from './request-log.js';

/** The most origins remembered by {@link originReader} (one per `Host` spelling and scheme seen: a client controls them). */
const MAX_ORIGINS = 64;

/**
 * A reader of the origin a request was made to (`http://127.0.0.1:8787`): the connection's scheme
 * and the `Host` header, normalised by `URL`. `undefined` without a `Host` header or with one that
 * does not parse. Remembers the last {@link MAX_ORIGINS} spellings, so a request pays for a `URL` only once.
 */
function originReader(): (req: IncomingMessage) => string | undefined {
  const origins = new Map<string, string>();
  return (req) => {
    if (req.headers.host === undefined) return undefined;
    const base = `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host}`;
    let origin = origins.get(base);
    if (origin === undefined) {
      try {
        origin = new URL(base).origin;
      } catch {
        return undefined;
      }
      if (origins.size >= MAX_ORIGINS) origins.clear();
      origins.set(base, origin);
    }
    return origin;
  };
}

/**
 * Answers one request that mockvideo itself failed to answer: the routes' 500 (`ourFault`:
 * `{ "error": "mockvideo failed to answer: <message>" }`), or, when its headers are already sent,
 * a closed connection. Other clients are not affected.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) req.socket.destroy();
  else if (!res.destroyed) {
    const answer = ourFault((error as Error)?.message);
    res.writeHead(answer.status, { ...answer.headers, ...DEVICE_ANSWER_HEADERS }).end(answer.body);
  }
}

/** A body's bytes, and the same bytes as a latin1 string, written with the header block in one piece (see `write`); `undefined` for a body over {@link ONE_WRITE_BYTES}. */
interface EncodedBody {
  body: Buffer;
  bodyLatin1: string | undefined;
}
/**
 * What is sent for one answer with one `x-mockvideo-findings` count: its header block, its body (see
 * {@link EncodedBody}) and the body's text for the journal. Made once per (shared) answer and count,
 * so that a request looks up one object for all three.
 */
interface Sendable extends EncodedBody {
  head: OutgoingHttpHeaders;
  /** For an operation, the body as UTF-8 text (`bodyText`), as the journal keeps it; `''` for other routes (never journaled: no image or package is decoded as text). */
  text: string;
}
/** The sendables of each answer made so far, by findings count (-1: not an operation). */
const sendables = new WeakMap<Answer, Map<number, Sendable>>();

/** The largest body sent in one write with its header block (64 KiB): larger ones (images, packages) go as a second buffer, not kept twice. */
const ONE_WRITE_BYTES = 64 * 1024;

/**
 * Encoded bodies by a text, shared by every answer with that body: up to {@link SharedBodies.MAX_CHARS}
 * characters of texts, then it forgets them all at once. Read only when an answer is encoded for the
 * first time, never per request.
 */
class SharedBodies {
  static readonly MAX_CHARS = 1024 * 1024;
  readonly #bodies = new Map<string, EncodedBody>();
  #chars = 0;

  /** The body kept under `text`, else `make()`'s (kept under `text` from now on). */
  shared(text: string, make: () => EncodedBody): EncodedBody {
    const kept = this.#bodies.get(text);
    if (kept) return kept;
    const made = make();
    if (this.#chars + text.length > SharedBodies.MAX_CHARS) {
      this.#bodies.clear();
      this.#chars = 0;
    }
    this.#bodies.set(text, made);
    this.#chars += text.length;
    return made;
  }
}

/**
 * The encoded bodies of answers, by body text (up to {@link ONE_WRITE_BYTES} characters each): the
 * answers of one prepared response in each scenario that has it differ by their headers only, so 50
 * scenarios that extend `default` send 6 bodies, not 300 copies of them (fewer bytes for the CPU
 * caches to hold, less for the garbage collector).
 */
const sharedBodies = new SharedBodies();
/**
 * The same for bodies given as bytes (recordings), by their bytes as a latin1 string (one character
 * per byte, made anyway to send them: see `write`): recordings of one operation often hold the same
 * answer (a session asks for the same configuration many times), and then share one copy of it
 * instead of one per recording. Kept apart from {@link sharedBodies}: a text and bytes whose latin1
 * reading equals it are not the same body.
 */
const sharedByteBodies = new SharedBodies();

function encodeBody(bytes: Uint8Array): EncodedBody {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { body, bodyLatin1: body.byteLength <= ONE_WRITE_BYTES ? body.toString('latin1') : undefined };
}

/** The encoded body of `answer`: shared by body text (see {@link sharedBodies}) or bytes ({@link sharedByteBodies}), else its own. */
function encodedBodyOf(answer: Answer): EncodedBody {
  const text = answer.body;
  if (typeof text !== 'string') {
    const encoded = encodeBody(text);
    return encoded.bodyLatin1 === undefined ? encoded : sharedByteBodies.shared(encoded.bodyLatin1, () => encoded);
  }
  if (text.length > ONE_WRITE_BYTES) return encodeBody(bodyBytes(answer));
  return sharedBodies.shared(text, () => encodeBody(Buffer.from(text, 'utf8')));
}

/** The {@link Sendable} of `answer` with `x-mockvideo-findings: findings` (for an operation; -1: none) and its content length. */
function sendableOf(answer: Answer, findings: number): Sendable {
  let ofAnswer = sendables.get(answer);
  if (!ofAnswer) sendables.set(answer, (ofAnswer = new Map()));
  let sendable = ofAnswer.get(findings);
  if (!sendable) {
    // Another count of the same answer shares its encoded body.
    const { body, bodyLatin1 } = ofAnswer.values().next().value ?? encodedBodyOf(answer);
    // Copied with Object.assign, not spread: V8 (Node 20) gives every copy made by
    // `{ ...headers, name: value }` a hidden class of its own, so 300 answers made 298 classes and
    // every read of a header block (node:http's, the request log's, the journal's) went
    // megamorphic. These share one class per set of header names.
    const head: OutgoingHttpHeaders = Object.assign({}, answer.headers, DEVICE_ANSWER_HEADERS);
    head['content-length'] = String(body.byteLength);
    if (findings >= 0) head[FINDINGS_HEADER] = String(findings);
    ofAnswer.set(findings, (sendable = { body, bodyLatin1, head, text: findings >= 0 ? bodyText(answer) : '' }));
  }
  return sendable;
}

/** The origin-form (path and query) of an absolute-form request target; `/` when it does not parse. */
function originForm(target: string): string {
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return '/';
  }
}

/** Options of {@link deviceListener}. */
export interface DeviceHostOptions {
  context: ServerContext;
  /**
   * The routes that answer the device-facing surface (the default engine). Without them (`--engine
   * msw`), every request goes to `host`, which runs the MSW handlers; journal and log stay here.
   */
  routes?: Routes;
  /** The Express host (admin API, dashboard, analytics, the 404 of other paths; with `--engine msw` the MSW handlers): made on first use. */
  host: () => RequestListener | Promise<RequestListener>;
  /** Carries out a `pass` plan: the recording proxy, which answers the request (a rejection: a fault of ours, answered 500). */
  pass?: (req: IncomingMessage, res: ServerResponse, plan: Extract<Plan, { kind: 'pass' }>) => Promise<void>;
  /** Hears each request once answered (or the client went away). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Without `routes` (`--engine msw`): the routes' `refuse` check (see `RoutesOptions.refuse`), which the routes make themselves otherwise. */
  refuse?: (request: RouteRequest) => string | undefined;
}

/**
 * The Node host of the device-facing surface, one pipeline for `serve`, `replay` and `record`:
 * read the request (method, target, origin from `Host`) → plan it with the routes (checks,
 * findings, the answer) → journal (requests to operations) and log → one writer: the header block
 * and the body in one write, after the planned delay; `reset`/`hang` close the connection; `pass`
 * goes to the recording proxy; what the routes leave (`none`: the admin API, the dashboard, other
 * paths) goes to the Express host, with its path normalised first so that no odd spelling of
 * `/__mockvideo` (`/%5F%5Fmockvideo/`) gets past the admin guard. A fault of mockvideo's own gives
 * that client a JSON 500; the others go on.
 */
export function deviceListener(options: DeviceHostOptions): RequestListener {
  const { context, routes, pass, onRequest } = options;
  const originOf = originReader();
  let host: RequestListener | Promise<RequestListener> | undefined;
  const toHost = (req: IncomingMessage, res: ServerResponse) => {
    const ready = (host ??= Promise.resolve(options.host()).then((made) => (host = made)));
    if (typeof ready === 'function') return void ready(req, res);
    ready.then(
      (made) => made(req, res),
      (error: Error) => answerFailure(req, res, new Error(`could not load its HTTP host: ${error.message}`)),
    );
  };

  /** Journals (a request to an operation) and logs one exchange; `start` is `performance.now()` when it arrived. */
  const settle = (
    req: IncomingMessage,
    route: Route,
    query: string,
    findings: readonly Finding[],
    receivedAt: number,
    start: number,
    sent: SentAnswer,
  ) => {
    const durationMs = performance.now() - start;
    if (route.kind === 'operation') {
      const url = req.url ?? '';
      const at = url.indexOf('?');
      const target: OperationTarget = {
        operation: route.operation,
        path: at < 0 ? url : url.slice(0, at),
        search: query,
      };
      journalExchange(context, req, target, findings, receivedAt, durationMs, sent);
    }
    onRequest?.(
      logEntry(
        req.method ?? 'GET',
        route.kind === 'operation' ? route.operation : route.path,
        sent.status,
        sent.headers,
        durationMs,
      ),
    );
  };
  /** Journals and logs the exchange when it ends (answered, or the client went away); `sent` tells what was sent. */
  const observe = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    query: string,
    findings: readonly Finding[],
    sent: () => SentAnswer,
  ) => {
    if (route.kind !== 'operation' && !onRequest) return;
    const receivedAt = Date.now();
    const start = performance.now();
    res.once('close', () => settle(req, route, query, findings, receivedAt, start, sent()));
  };
  /** What was sent, read from the response (where someone else wrote it). */
  const written = (res: ServerResponse, body: () => string) => (): SentAnswer => {
    // The recording proxy hands over its redacted view: then the raw body is not read.
    const view = journalViewOf(res);
    return { status: res.headersSent ? res.statusCode : 0, headers: res.getHeaders(), body: view ? '' : body(), view };
  };
  const NOT_SENT: SentAnswer = { status: 0, headers: {}, body: '' };

  /** Sends an answer's header block and body. */
  const send = (req: IncomingMessage, res: ServerResponse, status: number, { body, bodyLatin1, head }: Sendable) => {
    res.writeHead(status, head);
    // A latin1 string (each character one byte of the body) is joined to the header block by
    // node:http and sent in one write, where a Buffer body goes out as a second buffer (writev):
    // ~5% less CPU per request. Date and Connection/Keep-Alive stay node:http's own.
    if (req.method === 'HEAD') res.end();
    else if (bodyLatin1 !== undefined) res.end(bodyLatin1, 'latin1');
    else res.end(body);
  };
  /** Sends a planned answer after its delay, or closes the connection for `drop`. */
  const write = (req: IncomingMessage, res: ServerResponse, plan: Extract<Plan, { kind: 'answer' | 'drop' }>) => {
    if (res.destroyed) return;
    if (plan.kind === 'drop') return void req.socket.destroy();
    send(
      req,
      res,
      plan.answer.status,
      sendableOf(plan.answer, plan.route.kind === 'operation' ? plan.findings.length : -1),
    );
  };

  const carry = (req: IncomingMessage, res: ServerResponse, plan: Plan, query: string, start: number) => {
    if (plan.kind === 'none') return toHost(req, res);
    if (plan.kind === 'pass') {
      if (!pass) return toHost(req, res);
      // Set first, so that the proxy's own headers join it and the journal reads them all.
      if (plan.route.kind === 'operation') res.setHeader(FINDINGS_HEADER, String(plan.findings.length));
      for (const [name, value] of Object.entries(DEVICE_ANSWER_HEADERS)) res.setHeader(name, value);
      observe(req, res, plan.route, query, plan.findings, written(res, captureBody(res)));
      return void pass(req, res, plan).catch((error: unknown) => answerFailure(req, res, error));
    }
    const findings = plan.route.kind === 'operation' ? plan.findings.length : -1;
    if (plan.kind === 'answer' && plan.delayMs <= 0) {
      // Answered now: journaled and logged as sent, with no listener on the response.
      const sendable = sendableOf(plan.answer, findings);
      const sent = res.destroyed
        ? NOT_SENT
        : { status: plan.answer.status, headers: sendable.head, body: sendable.text };
      if (!res.destroyed) send(req, res, plan.answer.status, sendable);
      if (plan.route.kind === 'operation' || onRequest)
        settle(req, plan.route, query, plan.findings, Date.now(), start, sent);
      return;
    }
    observe(req, res, plan.route, query, plan.findings, () => {
      if (plan.kind !== 'answer' || !res.writableFinished) return NOT_SENT;
      const { head, text } = sendableOf(plan.answer, findings);
      return { status: plan.answer.status, headers: head, body: text };
    });
    if (plan.delayMs <= 0) return write(req, res, plan);
    const timer = setTimeout(write, plan.delayMs, req, res, plan);
    res.once('close', () => clearTimeout(timer));
  };

  /** Answers now, journaled and logged, what no route plans (a check's answer, a fault of ours). */
  const answerNow = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    answered: Answer,
    query: string,
    start: number,
  ) => carry(req, res, { kind: 'answer', route, findings: [], delayMs: 0, answer: answered }, query, start);

  return (req, res) => {
    const start = performance.now();
    let target = req.url ?? '/';
    // An absolute-form target (`GET http://host/api/g1/meta/cp`) is routed by its path; the host it names is never asked.
    if (!target.startsWith('/')) target = originForm(target);
    const at = target.indexOf('?');
    const path = at < 0 ? target : target.slice(0, at);
    const query = at < 0 ? '' : target.slice(at + 1);
    const route = routeOf(path);
    const request: RouteRequest = {
      method: req.method ?? 'GET',
      path,
      query,
      origin: originOf(req) ?? '',
      headers: req.headers,
      address: req.socket.remoteAddress,
    };
    const toOwnHost = () => {
      // The admin guard and Express see the normalised path (a trailing slash kept): no odd spelling gets past them.
      const seen = route.path === '/' || !path.endsWith('/') ? route.path : `${route.path}/`;
      if (seen !== path) req.url = query ? `${seen}?${query}` : seen;
      toHost(req, res);
    };
    if (!routes) {
      // --engine msw: the routes' checks, then the MSW handlers in the Express host answer; the journal and the log stay here.
      const refused = precheck(request, route, options.refuse);
      if (refused) return answerNow(req, res, route, refused, query, start);
      if (!isDeviceRoute(route)) return toOwnHost();
      const findings =
        route.kind === 'operation'
          ? queryFindings(route.operation, query, hasBody(req.headers), context.responder.clock.nowSeconds())
          : [];
      observe(req, res, route, query, findings, written(res, captureBody(res)));
      return toHost(req, res);
    }
    let plan: Plan | Promise<Plan>;
    try {
      plan = routes(request);
    } catch (error) {
      return answerNow(req, res, route, ourFault((error as Error)?.message), query, start);
    }
    const go = (ready: Plan) =>
      ready.kind === 'none' && !isDeviceRoute(route) ? toOwnHost() : carry(req, res, ready, query, start);
    if (!(plan instanceof Promise)) return go(plan);
    plan.then(go, (error: unknown) => answerNow(req, res, route, ourFault((error as Error)?.message), query, start));
  };
}
