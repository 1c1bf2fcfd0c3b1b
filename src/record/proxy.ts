/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Pool } from 'undici';
import { API_PREFIX } from '../contract/core.js';
import { journalView, setJournalView, type JournalFacts, type JournalView } from '../journal/journal-view.js';
import {
  RedactionRefusedError,
  buildRecording,
  describeRedactions,
  splitQuery,
  type NamedRecording,
  type NormalisationPolicy,
  type Recording,
  type Redaction,
} from '../normalise/index.js';
import { measuredLatency } from '../latency/latency.js';
import { DEVICE_ANSWER_HEADERS } from '../routes/answer-headers.js';
import { forwardPath, routeOf, type Route } from '../routes/path.js';
import type { Answer, PassMarks } from '../routes/request.js';
import { DEFAULT_MAX_IN_FLIGHT_BYTES, InFlightBudget } from './budget.js';
import { problemAnswer, type UpstreamProblem } from './upstream-problem.js';
import { whyNotRecorded, type RecordChoice } from './what-to-record.js';
import type { ProxyLogEntry } from './exchange-log.js';
import { DecodedTooLarge, causeOf, decoded, dropped, flat, requestTarget } from './wire.js';

export { DEFAULT_MAX_IN_FLIGHT_BYTES } from './budget.js';
export type { ProxyLogEntry } from './exchange-log.js';

/** The default largest upstream body, in bytes, as received and as decoded (32 MiB: far above any answer of the six operations). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** An upstream body over the size limit. */
class BodyTooLarge extends Error {}

/** Options of {@link createRecordingProxy}. */
export interface RecordingProxyOptions extends RecordChoice {
  /** The one upstream every request goes to, e.g. `https://api.example.com` (a path prefix is kept). */
  upstream: string;
  /**
   * Time allowed for the upstream to answer completely, headers and whole body, in milliseconds: a
   * total deadline from the start of the exchange, so a body that trickles in without end is cut too.
   */
  timeoutMs: number;
  /**
   * Accept an https upstream whose certificate does not verify (self-signed, unknown CA, wrong host
   * name). Default false: such an upstream is refused with a 502 and nothing is recorded.
   */
  insecureUpstream?: boolean;
  /**
   * The largest upstream body recorded, in bytes, both as received and once decoded (a gzip body
   * that expands past it is stopped while decoding); a larger one gets a 502. Default {@link DEFAULT_MAX_BODY_BYTES}.
   */
  maxBodyBytes?: number;
  /**
   * The most bytes of upstream bodies that the exchanges in flight hold in memory (received, decoded,
   * waiting for the disk) before new ones wait to be forwarded (see `InFlightBudget`). Default
   * {@link DEFAULT_MAX_IN_FLIGHT_BYTES} (at least 2 × `maxBodyBytes`).
   */
  maxInFlightBytes?: number;
  policy: NormalisationPolicy;
  /**
   * Stores a recording (e.g. `RecordingWriter.queue`): its name (`meta-cp/0a1b2c3d4e5f-000.json`) at
   * once, and `written`, which resolves once it is in place or rejects with why it could not be.
   */
  store: (recording: Recording) => { name: string; written: Promise<unknown> };
  /** Called once the recording of an exchange is stored (in place). */
  onRecorded?: (named: NamedRecording) => void;
  /** Called once per exchange. */
  onExchange?: (entry: ProxyLogEntry) => void;
}

/** A recording reverse proxy: the exchange of a `pass` plan, a middleware, and a way to wait for exchanges in flight. */
export interface RecordingProxy {
  /**
   * Forwards one request the routes passed on (`route`: an operation or `meta/upgrade`) and answers
   * it; with `marks`, the answer carries what became of the recording (see `PassMarks`).
   * Resolves when answered and recorded (or not); rejects on a fault of ours before any answer.
   */
  forward: (
    req: IncomingMessage,
    res: ServerResponse,
    pass: { route: Route; marks?: PassMarks | undefined },
  ) => Promise<void>;
  /** A Node/Express middleware (after the MSW handlers of `--engine msw`) that forwards GET and HEAD to an operation (routed by `routeOf`) with `marks`, and leaves others to `next()`. */
  middleware: (
    marks?: PassMarks,
  ) => (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: (error?: unknown) => void) => void;
  /** Resolves when every exchange in flight has been answered and its recording stored (or dropped whole). */
  drain: () => Promise<void>;
  /** Closes the upstream connections. */
  close: () => Promise<void>;
}

/** Writes one answer of mockvideo's own (an upstream problem) unless the response is already under way. */
function writeAnswer(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, { ...answer.headers, ...DEVICE_ANSWER_HEADERS });
  res.end(answer.body);
}

/**
 * A reverse proxy for one upstream only (never an open proxy: the Host header and absolute-form
 * targets are ignored). It forwards what the routes pass on: a GET or HEAD to an operation or
 * `meta/upgrade`, at the route's own path `/api/g1/<operation>` (see `forwardPath`; so
 * `/api/g1/./meta/setting` is forwarded and recorded as `/api/g1/meta/setting`, and nothing reaches
 * a path outside `/api/g1` on the upstream), its query as sent (order, repeated `ref` and encoding
 * kept); the upstream's status, headers and body bytes go back unchanged. Exchanges of the six
 * operations are redacted and stored (see `whyNotRecorded`): after the client is answered (before
 * it with marks, which tell the client what became of the recording); {@link RecordingProxy.drain}
 * waits for them. A compressed body is stored decoded.
 *
 * Upstream problems are data (`UpstreamProblem`) answered by the routes' `upstreamFailed`: 504 when
 * the upstream does not answer completely within `timeoutMs` (`cause` `UND_ERR_HEADERS_TIMEOUT` or
 * `UND_ERR_BODY_TIMEOUT`); 502 when it is down, its certificate does not verify (unless
 * `insecureUpstream`), its body is over `maxBodyBytes` or does not decode. Nothing is stored then.
 * Over the in-flight budget a request waits to be forwarded; it is never refused for the upstream.
 *
 * @example
 * const proxy = createRecordingProxy({ upstream: 'https://api.example.com', timeoutMs: 10_000, policy: DEFAULT_POLICY, store: (r) => writer.queue(r) });
 * deviceListener({ ..., pass: (req, res, plan) => proxy.forward(req, res, plan) });
 */
export function createRecordingProxy(options: RecordingProxyOptions): RecordingProxy {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  // undici is loaded on first use, so `serve` does not pay for it at start-up.
  const { Pool: UndiciPool } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const pool: Pool = new UndiciPool(upstream.origin, {
    connections: 128,
    pipelining: 1,
    ...(options.insecureUpstream ? { connect: { rejectUnauthorized: false } } : {}),
  });
  const inFlight = new Set<Promise<void>>();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget = new InFlightBudget(Math.max(options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES, 2 * limit));

  async function exchange(
    req: IncomingMessage & { originalUrl?: string },
    res: ServerResponse,
    route: Route,
    marks: PassMarks | undefined,
  ): Promise<void> {
    const forwarded = forwardPath(route);
    if (forwarded === undefined) throw new Error(`the routes passed ${route.path} on, which is not an operation`);
    const admitted = budget.admit();
    if (admitted) await admitted;
    const started = process.hrtime.bigint();
    const target = requestTarget(req.originalUrl ?? req.url ?? '/');
    const at = target.indexOf('?');
    const search = at < 0 ? '' : target.slice(at + 1);
    const path = forwarded;
    const operation = forwarded.slice(API_PREFIX.length + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    const requestHeaders = flat(req.headers);
    const headers: Record<string, string> = {};
    const unforwarded = dropped(requestHeaders);
    for (const name in requestHeaders) if (!unforwarded.has(name)) headers[name] = requestHeaders[name]!;
    headers.host = upstream.host;
    // When the client got the upstream's answer (the log's `durationMs` ends there, not when the recording is in place).
    let answeredNs: bigint | undefined;
    const log = (
      status: number,
      recorded: string | undefined,
      note: string,
      redactions: Redaction[] = [],
      lost?: ProxyLogEntry['lost'],
    ) =>
      options.onExchange?.({
        method,
        operation,
        status,
        recorded,
        note,
        leaks: redactions.reduce((n, r) => n + r.count, 0),
        ...(redactions.length ? { redactions } : {}),
        durationMs: Number((answeredNs ?? process.hrtime.bigint()) - started) / 1e6,
        ...(lost ? { lost } : {}),
      });
    const problem = (found: UpstreamProblem) => {
      const { answer, note } = problemAnswer(found, {
        upstream: upstream.origin,
        request: `${method} ${path}`,
        seconds: options.timeoutMs / 1000,
        limit,
      });
      writeAnswer(res, answer);
      log(answer.status, undefined, note);
    };
    // What this exchange holds of the budget; given back when it ends, however it ends.
    let mine = 0;
    const hold = (bytes: number) => {
      budget.take(bytes);
      mine += bytes;
    };
    try {
      await forward();
    } finally {
      budget.give(mine);
    }

    async function forward(): Promise<void> {
      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let body: Buffer;
      // What was late when the deadline fired: the headers, or the rest of the body.
      let phase: 'headers' | 'body' = 'headers';
      let size = 0;
      // When the request went, its answer's headers came and its last byte came (for `response.latency`).
      const sentNs = process.hrtime.bigint();
      let headersNs: bigint;
      let lastByteNs: bigint;
      try {
        const answer = await pool.request({
          path: `${basePath}${path}${at < 0 ? '' : `?${search}`}`,
          method: method as 'GET',
          headers,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          // The total deadline: headers and the whole body. undici's two timeouts above only bound the
          // wait for the headers and the gap between two chunks, not a body that trickles without end.
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        phase = 'body';
        headersNs = process.hrtime.bigint();
        status = answer.statusCode;
        responseHeaders = answer.headers;
        const chunks: Buffer[] = [];
        for await (const chunk of answer.body) {
          size += (chunk as Buffer).length;
          if (size > limit) throw new BodyTooLarge();
          hold((chunk as Buffer).length);
          chunks.push(chunk as Buffer);
        }
        body = Buffer.concat(chunks);
        lastByteNs = process.hrtime.bigint();
      } catch (error) {
        return problem(
          error instanceof BodyTooLarge
            ? { kind: 'too-large', decoded: false }
            : { kind: 'failed', cause: causeOf(error, phase), received: size },
        );
      }
      // A body that does not decode (say, invalid gzip) is no answer: the client gets a clear 502, not
      // bytes it cannot read, and nothing is recorded.
      const answerHeaders = flat(responseHeaders);
      let plain: Buffer;
      try {
        plain = await decoded(body, answerHeaders['content-encoding'], limit);
        if (plain !== body) hold(plain.length);
      } catch (error) {
        if (error instanceof DecodedTooLarge) return problem({ kind: 'too-large', decoded: true });
        return problem({
          kind: 'bad-encoding',
          encoding: answerHeaders['content-encoding'] ?? '',
          message: (error as Error).message,
        });
      }
      const facts: JournalFacts = {
        method,
        path,
        search,
        requestHeaders,
        status,
        responseHeaders: answerHeaders,
        body: plain,
      };
      let note = whyNotRecorded(route, method, status, options) ?? '';
      if (note) {
        answer(marks?.passthrough);
        // The journal keeps this exchange redacted as recordings are (never the raw answer), its body
        // cut: set in this turn, before the response closes.
        setJournalView(res, journalView(facts, options.policy));
        log(status, undefined, note);
        return;
      }
      // Without marks nothing in the answer depends on the recording: the client gets it now, and the
      // recording is made and stored after. With them, the answer says what became of the recording,
      // so it waits for the store.
      const answerFirst = !marks;
      if (answerFirst) answer(undefined);
      let recorded: string | undefined;
      let redactions: Redaction[] = [];
      let lost: ProxyLogEntry['lost'];
      // What the journal keeps; set on `res` before it closes (in this turn when the client is answered first).
      let view: JournalView | undefined;
      try {
        const result = buildRecording(
          {
            method,
            path,
            query: splitQuery(search),
            requestHeaders,
            status,
            responseHeaders: answerHeaders,
            body: plain,
            recordedAt: new Date().toISOString(),
          },
          options.policy,
        );
        redactions = result.redactions;
        result.recording.response.latency = measuredLatency(sentNs, headersNs, lastByteNs);
        const stored = options.store(result.recording);
        // The journal shows the recording itself (already redacted), named by its file.
        view = journalView(facts, options.policy, { recording: result.recording, file: stored.name });
        if (answerFirst) setJournalView(res, view);
        await stored.written;
        recorded = stored.name;
        options.onRecorded?.({ name: recorded, recording: result.recording });
        if (redactions.length) note = `redacted ${describeRedactions(redactions)}`;
      } catch (error) {
        // The client still gets the upstream's answer; the loss is reported, never hidden in a note.
        lost = { code: (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', message: (error as Error).message };
        note =
          error instanceof RedactionRefusedError ? 'NOT RECORDED: redaction refused' : `NOT RECORDED: ${lost.code}`;
        // The journal names no recording that is not there. A view already handed over is changed in place.
        const unrecorded = journalView(facts, options.policy);
        if (view) Object.assign(view, unrecorded);
        else if (answerFirst) setJournalView(res, unrecorded);
        view = unrecorded;
      }
      if (!answerFirst) {
        setJournalView(res, view);
        // A lost exchange goes without marks (e.g. `x-mockvideo-match: recorded`): they would claim it was recorded.
        answer(lost ? undefined : marks?.recorded);
      }
      log(status, recorded, note, redactions, lost);

      /** Sends the upstream's answer as it came (its hop-by-hop headers left out), with `extra` headers. */
      function answer(extra: Readonly<Record<string, string>> | undefined): void {
        const out: Record<string, string | string[]> = {};
        const unsent = dropped(answerHeaders);
        for (const [name, value] of Object.entries(responseHeaders))
          if (value !== undefined && !unsent.has(name.toLowerCase())) out[name] = value;
        // Last: an upstream's own content-security-policy or x-content-type-options never replaces ours (its HTML is no page of our origin).
        res.writeHead(status, { ...out, ...extra, ...DEVICE_ANSWER_HEADERS });
        res.end(body);
        answeredNs = process.hrtime.bigint();
      }
    }
  }

  const forward: RecordingProxy['forward'] = (req, res, pass) => {
    const done = exchange(req, res, pass.route, pass.marks);
    const settled = done.catch(() => undefined);
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return done;
  };

  return {
    forward,
    middleware: (marks) => (req, res, next) => {
      const target = requestTarget(req.originalUrl ?? req.url ?? '/');
      const at = target.indexOf('?');
      const route = routeOf(at < 0 ? target : target.slice(0, at));
      if (route.kind !== 'operation' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      forward(req, res, { route, marks }).catch((error: unknown) => {
        if (!res.headersSent) next(error);
      });
    },
    drain: async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    close: () => pool.close(),
  };
}
