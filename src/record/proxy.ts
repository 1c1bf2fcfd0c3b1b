import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Pool } from 'undici';
import { API_PREFIX, operationOfPath, type OperationName } from '../contract/core.js';
import { journalView, setJournalView, type JournalFacts, type JournalView } from '../journal/journal-view.js';
import { RedactionRefusedError, buildRecording, describeRedactions, splitQuery, type NamedRecording, type NormalisationPolicy, type Recording, type Redaction } from '../normalise/index.js';
import { measuredLatency } from '../latency/latency.js';
import { DEVICE_ANSWER_HEADERS } from '../routes/answer-headers.js';
import { DecodedTooLarge, causeOf, decoded, dropped, flat, requestTarget, type UpstreamFailure } from './wire.js';

/** One exchange through the proxy, as the log line reports it. `durationMs` in milliseconds. */
export interface ProxyLogEntry {
  method: string;
  /** The operation (`meta/cp`) or the path. */
  operation: string;
  /** The status the client got (504 when the upstream was too slow, 502 when it failed otherwise). */
  status: number;
  /** The recording written, or why none was. */
  recorded: string | undefined;
  note: string;
  durationMs: number;
  /** Echoes of secrets that the redaction replaced outside their own parameter or header (the sum of `redactions`). */
  leaks: number;
  /** Each replacement outside a secret's own place: which secret, where, in which encoding, how often. */
  redactions?: Redaction[];
  /**
   * Set when the client got the upstream's answer but its recording could not be stored (disk full,
   * folder removed, ...) or its redaction was refused (`EREDACTION`: a secret in the path or the match
   * key): the exchange is lost. `code` is the error code (`ENOSPC`, `ENOTDIR`, `EREDACTION`, ...).
   */
  lost?: { code: string; message: string };
}

/** The default largest upstream body, in bytes, as received and as decoded (32 MiB: far above any answer of the six operations). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The default most bytes of upstream bodies held at once by all exchanges in flight (128 MiB). */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 128 * 1024 * 1024;

/** An upstream body over the size limit. */
class BodyTooLarge extends Error {}

/** Upstream bodies in flight over the memory budget. */
class OverBudget extends Error {}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/**
 * The answer to the client when the upstream failed (see {@link causeOf}): 504 for a timeout, 502
 * otherwise, with a message that names the upstream, the request (`GET /api/g1/meta/cp`) and the
 * next step. `seconds` is the `--upstream-timeout`; `received` the body bytes that had arrived.
 */
function failureAnswer(cause: UpstreamFailure, upstream: string, request: string, seconds: number, received: number): { status: number; message: string } {
  const slow = `Nothing was recorded. If the service is only slow, raise --upstream-timeout (now ${seconds}).`;
  if (cause.code === 'UND_ERR_HEADERS_TIMEOUT') return { status: 504, message: `[mockvideo] The upstream ${upstream} sent no answer to ${request} within ${seconds} s (${cause.code}). ${slow}` };
  if (cause.code === 'UND_ERR_BODY_TIMEOUT') return { status: 504, message: `[mockvideo] The upstream ${upstream} did not finish its answer to ${request} within ${seconds} s: ${received} body bytes had arrived (${cause.code}). ${slow}` };
  if (cause.kind === 'timeout') return { status: 504, message: `[mockvideo] The upstream ${upstream} did not answer ${request} in time: ${cause.message} (${cause.code}). ${slow}` };
  if (cause.kind === 'certificate') {
    return {
      status: 502,
      message: `[mockvideo] The TLS certificate of the upstream ${upstream} does not verify, so ${request} was not sent: ${cause.message} (${cause.code}). Nothing was recorded. Trust its CA with NODE_EXTRA_CA_CERTS=ca.pem, or, for a test server you trust, start with --insecure-upstream (the certificate is then not checked).`,
    };
  }
  return { status: 502, message: `[mockvideo] The upstream ${upstream} did not answer ${request}: ${cause.message} (${cause.code}). Nothing was recorded. Check that --upstream is right and reachable.` };
}

/** Options of {@link createRecordingProxy}. */
export interface RecordingProxyOptions {
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
   * The most bytes of upstream bodies that all exchanges in flight may hold at once; an exchange that
   * would pass it gets a 503 and is not recorded. Default {@link DEFAULT_MAX_IN_FLIGHT_BYTES} (at least 2 × `maxBodyBytes`).
   */
  maxInFlightBytes?: number;
  policy: NormalisationPolicy;
  /**
   * Stores a recording (e.g. `RecordingWriter.queue`): its name (`meta-cp/0a1b2c3d4e5f-000.json`) at
   * once, and `written`, which resolves once it is in place or rejects with why it could not be.
   */
  store: (recording: Recording) => { name: string; written: Promise<unknown> };
  /** Record only these operations (the others are passed through, not recorded). */
  only?: readonly OperationName[];
  /** Record 5xx answers too (default: passed to the client, not recorded). */
  recordFailures?: boolean;
  /**
   * Extra headers on the upstream's answers, by what became of the exchange: `recorded` (stored),
   * `passthrough` (passed to the client and not recorded on purpose: a 5xx without `recordFailures`,
   * not in `only`, not an operation). None on an exchange whose recording could not be stored (they
   * would claim what did not happen), nor on mockvideo's own 502/504 errors. With them, the answer to
   * an exchange that is recorded waits until its recording is stored; without them, the client is
   * answered as soon as the upstream's answer is complete, and the recording is made and stored after.
   * @example { recorded: { 'x-mockvideo-match': 'recorded' }, passthrough: { 'x-mockvideo-match': 'passthrough' } }
   */
  responseHeaders?: { recorded?: Readonly<Record<string, string>>; passthrough?: Readonly<Record<string, string>> };
  /** Called once the recording of an exchange is stored (in place). */
  onRecorded?: (named: NamedRecording) => void;
  /** Called once per exchange. */
  onExchange?: (entry: ProxyLogEntry) => void;
}

/** A recording reverse proxy: the middleware, and a way to wait for exchanges in flight. */
export interface RecordingProxy {
  /** Node/Express middleware: forwards `/api/g1` requests, leaves others to `next()`. */
  middleware: (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: (error?: unknown) => void) => void;
  /** Resolves when every exchange in flight has been answered and its recording stored (or dropped whole). */
  drain: () => Promise<void>;
  /** Closes the upstream connections. */
  close: () => Promise<void>;
}

/**
 * A reverse proxy for one upstream only (never an open proxy: the Host header and absolute-form
 * targets are ignored). Each `/api/g1` GET or HEAD request is forwarded (other methods get 405:
 * every operation is a GET without a body) with its path and query string as sent
 * (order, repeated `ref` and encoding kept); the upstream's status, headers and body bytes go back
 * unchanged. Exchanges of the six operations are redacted and stored: after the client is answered
 * (before it with `responseHeaders`, which tell the client what became of the recording); {@link
 * RecordingProxy.drain} waits for them. A compressed body is stored decoded. 5xx answers are stored
 * only with `recordFailures`.
 *
 * When the upstream does not answer completely within `timeoutMs` (headers late, or a body still
 * arriving), the client gets a 504 JSON error `{ error, upstream, cause }` with `cause`
 * `UND_ERR_HEADERS_TIMEOUT` or `UND_ERR_BODY_TIMEOUT`; when it is down, its TLS certificate does not
 * verify (`DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, ... unless
 * `insecureUpstream`), its body is over `maxBodyBytes` or does not decode, a 502 of the same shape.
 * Nothing is stored in any of these cases.
 *
 * @example
 * const proxy = createRecordingProxy({ upstream: 'https://api.example.com', timeoutMs: 10_000, policy: DEFAULT_POLICY, store: (r) => writer.queue(r) });
 * app.use(proxy.middleware);
 */
export function createRecordingProxy(options: RecordingProxyOptions): RecordingProxy {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  // undici is loaded on first use, so `serve` does not pay for it at start-up.
  const { Pool: UndiciPool } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const pool: Pool = new UndiciPool(upstream.origin, { connections: 128, pipelining: 1, ...(options.insecureUpstream ? { connect: { rejectUnauthorized: false } } : {}) });
  const inFlight = new Set<Promise<void>>();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget = Math.max(options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES, 2 * limit);
  // Bytes of upstream bodies (as received and decoded) held by the exchanges in flight.
  let held = 0;

  async function exchange(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const target = requestTarget(req.originalUrl ?? req.url ?? '/');
    const at = target.indexOf('?');
    const path = at < 0 ? target : target.slice(0, at);
    const operation = operationOfPath(path);
    const method = (req.method ?? 'GET').toUpperCase();
    const requestHeaders = flat(req.headers);
    const headers: Record<string, string> = {};
    const unforwarded = dropped(requestHeaders);
    for (const name in requestHeaders) if (!unforwarded.has(name)) headers[name] = requestHeaders[name]!;
    headers.host = upstream.host;
    // When the client got the upstream's answer (the log's `durationMs` ends there, not when the recording is in place).
    let answeredNs: bigint | undefined;
    const log = (status: number, recorded: string | undefined, note: string, redactions: Redaction[] = [], lost?: ProxyLogEntry['lost']) =>
      options.onExchange?.({
        method,
        operation: operation ?? path,
        status,
        recorded,
        note,
        leaks: redactions.reduce((n, r) => n + r.count, 0),
        ...(redactions.length ? { redactions } : {}),
        durationMs: Number((answeredNs ?? process.hrtime.bigint()) - started) / 1e6,
        ...(lost ? { lost } : {}),
      });
    // What this exchange adds to `held`; given back when it ends, however it ends.
    let mine = 0;
    const hold = (bytes: number) => {
      if (held + bytes > budget) throw new OverBudget();
      held += bytes;
      mine += bytes;
    };
    try {
      await forward();
    } finally {
      held -= mine;
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
      let headersNs = sentNs;
      let lastByteNs = sentNs;
      try {
        const answer = await pool.request({
          path: `${basePath}${target}`,
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
          if (size > limit) throw new BodyTooLarge(`a body larger than the --max-body-size limit of ${mib(limit)} (${limit} bytes)`);
          hold((chunk as Buffer).length);
          chunks.push(chunk as Buffer);
        }
        body = Buffer.concat(chunks);
        lastByteNs = process.hrtime.bigint();
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          tooLarge(error.message, 'upstream body over the size limit');
          return;
        }
        if (error instanceof OverBudget) {
          overBudget();
          return;
        }
        const cause = causeOf(error, phase);
        const failed = failureAnswer(cause, upstream.origin, `${method} ${path}`, options.timeoutMs / 1000, size);
        if (!res.headersSent) {
          res.writeHead(failed.status, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ error: failed.message, upstream: upstream.origin, cause: cause.code }));
        }
        log(failed.status, undefined, `upstream ${cause.kind === 'timeout' ? 'timed out' : 'failed'}: ${cause.code}`);
        return;
      }
      // A body that does not decode (say, invalid gzip) is no answer: the client gets a clear 502, not
      // bytes it cannot read, and nothing is recorded.
      const answerHeaders = flat(responseHeaders);
      let plain: Buffer;
      try {
        plain = await decoded(body, answerHeaders['content-encoding'], limit);
        if (plain !== body) hold(plain.length);
      } catch (error) {
        if (error instanceof DecodedTooLarge) {
          tooLarge(`${error.message.replace(/\d+ bytes$/, `the --max-body-size limit of ${mib(limit)} (${limit} bytes)`)}`, 'upstream body decodes past the size limit');
          return;
        }
        if (error instanceof OverBudget) {
          overBudget();
          return;
        }
        const encoding = answerHeaders['content-encoding'];
        const message = `[mockvideo] The upstream ${upstream.origin} answered ${method} ${path} with a body that does not decode as "${encoding}": ${(error as Error).message}. Nothing was recorded.`;
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: message, upstream: upstream.origin, cause: 'EBADENCODING' }));
        log(502, undefined, `upstream body does not decode as ${encoding}`);
        return;
      }
      const facts: JournalFacts = { method, path, search: at < 0 ? '' : target.slice(at + 1), requestHeaders, status, responseHeaders: answerHeaders, body: plain };
      const wanted = operation && (!options.only || options.only.includes(operation));
      let note = '';
      if (!operation) note = 'not recorded: not an operation';
      else if (method !== 'GET') note = 'not recorded: only GET is recorded';
      else if (!wanted) note = 'not recorded: not in --only';
      else if (status >= 500 && !options.recordFailures) note = 'not recorded: upstream failure (use --record-failures)';
      if (note) {
        answer(options.responseHeaders?.passthrough);
        // The journal keeps this exchange redacted as recordings are (never the raw answer), its body
        // cut: set in this turn, before the response closes.
        setJournalView(res, journalView(facts, options.policy));
        log(status, undefined, note);
        return;
      }
      // Without `responseHeaders` nothing in the answer depends on the recording: the client gets it
      // now, and the recording is made and stored after. With them, the answer says what became of the
      // recording, so it waits for the store.
      const answerFirst = !options.responseHeaders;
      if (answerFirst) answer(undefined);
      let recorded: string | undefined;
      let redactions: Redaction[] = [];
      let lost: ProxyLogEntry['lost'];
      // What the journal keeps; set on `res` before it closes (in this turn when the client is answered first).
      let view: JournalView | undefined;
      try {
        const result = buildRecording(
          { method, path, query: splitQuery(facts.search), requestHeaders, status, responseHeaders: answerHeaders, body: plain, recordedAt: new Date().toISOString() },
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
        note = error instanceof RedactionRefusedError ? 'NOT RECORDED: redaction refused' : `NOT RECORDED: ${lost.code}`;
        // The journal names no recording that is not there. A view already handed over is changed in place.
        const unrecorded = journalView(facts, options.policy);
        if (view) Object.assign(view, unrecorded);
        else if (answerFirst) setJournalView(res, unrecorded);
        view = unrecorded;
      }
      if (!answerFirst) {
        setJournalView(res, view);
        // A lost exchange goes without `responseHeaders` (e.g. `x-mockvideo-match: recorded`): they would claim it was recorded.
        answer(lost ? undefined : options.responseHeaders?.recorded);
      }
      log(status, recorded, note, redactions, lost);

      /** Sends the upstream's answer as it came (its hop-by-hop headers left out), with `extra` headers. */
      function answer(extra: Readonly<Record<string, string>> | undefined): void {
        const out: Record<string, string | string[]> = {};
        const unsent = dropped(answerHeaders);
        for (const [name, value] of Object.entries(responseHeaders)) if (value !== undefined && !unsent.has(name.toLowerCase())) out[name] = value;
        // Last: an upstream's own content-security-policy or x-content-type-options never replaces ours (its HTML is no page of our origin).
        res.writeHead(status, { ...out, ...extra, ...DEVICE_ANSWER_HEADERS });
        res.end(body);
        answeredNs = process.hrtime.bigint();
      }
    }

    function tooLarge(what: string, note: string): void {
      const message = `[mockvideo] The upstream ${upstream.origin} answered ${method} ${path} with ${what}. Nothing was recorded. Raise --max-body-size if the answer is right.`;
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: message, upstream: upstream.origin, cause: 'EBODYTOOLARGE', limit }));
      log(502, undefined, note);
    }

    function overBudget(): void {
      const message = `[mockvideo] ${method} ${path} was not forwarded whole: the upstream answers in flight already hold ${mib(held)} of the ${mib(budget)} allowed. Nothing was recorded; repeat the request when fewer large answers are in flight.`;
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
      res.end(JSON.stringify({ error: message, upstream: upstream.origin, cause: 'EBUDGET' }));
      log(503, undefined, 'upstream answers in flight over the memory budget');
    }
  }

  return {
    middleware: (req, res, next) => {
      const target = requestTarget(req.originalUrl ?? req.url ?? '/');
      if (!target.startsWith(`${API_PREFIX}/`)) {
        next();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { 'content-type': 'application/json; charset=utf-8', allow: 'GET, HEAD' });
        res.end(JSON.stringify({ error: `[mockvideo] ${req.method} is not forwarded: every operation under ${API_PREFIX} is a GET without a body.`, allowed: ['GET', 'HEAD'] }));
        return;
      }
      const done = exchange(req, res).catch((error) => {
        if (!res.headersSent) next(error);
      });
      inFlight.add(done);
      done.finally(() => inFlight.delete(done));
    },
    drain: async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    close: () => pool.close(),
  };
}
