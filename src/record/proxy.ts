import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { errorText } from '../errors.js';
import { journalView, type JournalView } from '../journal/journal-view.js';
import {
  RedactionRefusedError,
  describeRedactions,
  type NamedRecording,
  type NormalisationPolicy,
  type Recording,
  type RedactedExchange,
} from '../normalise/index.js';
import { deviceHeaders } from '../routes/answer-headers.js';
import type { Plan, RouteRequest } from '../routes/request.js';
import { askUpstream, type UpstreamAnswer } from './ask-upstream.js';
import { DEFAULT_MAX_IN_FLIGHT_BYTES, InFlightBudget } from './budget.js';
import type { ProxyLogEntry } from './exchange-log.js';
import { forwardedRequest, passedBackHeaders, type ForwardedRequest } from './forward.js';
import { flat } from './wire.js';
import { problemAnswer } from './upstream-problem.js';
import { journalFactsOf, recordingOf, whyNotRecorded, type RecordChoice } from './what-to-record.js';

/** The default largest upstream body, in bytes, as received and as decoded (32 MiB: far above any answer of the six operations). */
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

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

/** A `pass` plan, as the recorder carries it out. */
export type PassPlan = Extract<Plan, { kind: 'pass' }>;

/**
 * What the recorder sent for one exchange, for the journal: the status and headers sent (`status` 0
 * when the client was gone first), its journal view (redacted as recordings are: nothing raw of the
 * exchange is kept), and, for a `marked` plan, what became of the recording (`recorded`,
 * `passthrough`; none for a lost recording or an answer of mockvideo's own).
 */
export interface PassAnswer {
  status: number;
  headers: Readonly<Record<string, string | string[]>>;
  view: JournalView;
  match?: 'recorded' | 'passthrough';
}

/** A recording reverse proxy: the exchange of a `pass` plan, and a way to wait for exchanges in flight. */
export interface RecordingProxy {
  /**
   * Forwards one request the routes passed on (`plan.route`: an operation or `meta/upgrade`) and
   * answers it, with the headers of the routes' one response step; a `marked` plan's answer says
   * what became of the recording (see `Plan`). Resolves with what was sent once the client is
   * answered (its recording may still be on its way to the disk: see `drain`); rejects on a fault
   * of ours before any answer.
   */
  forward: (request: RouteRequest, res: ServerResponse, plan: PassPlan) => Promise<PassAnswer>;
  /** Resolves when every exchange in flight has been answered and its recording stored (or dropped whole). */
  drain: () => Promise<void>;
  /** Closes the upstream connections. */
  close: () => Promise<void>;
}

/** What became of an exchange's recording, for the log. */
type Outcome = Pick<ProxyLogEntry, 'recorded' | 'note' | 'redactions' | 'lost'>;

/** A recording handed to the store: its name and write, what was redacted, and the journal view that shows it. */
interface Stored {
  name: string;
  written: Promise<unknown>;
  recording: Recording;
  redactions: RedactedExchange['redactions'];
  view: JournalView;
}

/**
 * A reverse proxy for one upstream only (never an open proxy: the Host header and absolute-form
 * targets are ignored). It forwards what the routes pass on (see `forwardedRequest`: a GET or HEAD
 * to an operation or `meta/upgrade`, at the route's own path, its query as sent); the upstream's
 * status, headers and body bytes go back unchanged. Exchanges of the six operations are redacted and
 * stored (see `whyNotRecorded`): after the client is answered (before it with marks, which tell the
 * client what became of the recording); {@link RecordingProxy.drain} waits for them. A compressed
 * body is stored decoded.
 *
 * Upstream problems are data (`UpstreamProblem`, from `askUpstream`) answered by the routes'
 * `upstreamFailed`: 504 when the upstream does not answer completely within `timeoutMs`; 502 when
 * it is down, its certificate does not verify (unless `insecureUpstream`), its body is over
 * `maxBodyBytes` or does not decode. Nothing is stored then. Over the in-flight budget a request
 * waits to be forwarded; it is never refused for the upstream.
 *
 * @example
 * const proxy = createRecordingProxy({ upstream: 'https://api.example.com', timeoutMs: 10_000, policy: DEFAULT_POLICY, store: (r) => writer.queue(r) });
 * deviceListener({ ..., pass: (req, res, plan) => proxy.forward(req, res, plan) });
 */
export function createRecordingProxy(options: RecordingProxyOptions): RecordingProxy {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  // undici is loaded on first use, so `serve` does not pay for it at start-up.
  const { Pool } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const pool = new Pool(upstream.origin, {
    connections: 128,
    pipelining: 1,
    ...(options.insecureUpstream ? { connect: { rejectUnauthorized: false } } : {}),
  });
  const inFlight = new Set<Promise<void>>();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget = new InFlightBudget(Math.max(options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES, 2 * limit));

  /** Records an exchange (see `recordingOf`): a failure to store it is reported as `lost`, never thrown. */
  async function record(forwarded: ForwardedRequest, got: UpstreamAnswer, stored: Stored): Promise<Outcome> {
    try {
      await stored.written;
      options.onRecorded?.({ name: stored.name, recording: stored.recording });
      const note = stored.redactions.length ? `redacted ${describeRedactions(stored.redactions)}` : '';
      return { recorded: stored.name, note, redactions: stored.redactions };
    } catch (error) {
      // The client still gets the upstream's answer; the loss is reported, never hidden in a note.
      const lost = { code: (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', message: errorText(error) };
      // The journal names no recording that is not there: the view handed over is changed in place.
      Object.assign(stored.view, journalView(journalFactsOf(forwarded, got), options.policy));
      return { recorded: undefined, note: `NOT RECORDED: ${lost.code}`, lost };
    }
  }

  /**
   * The recording of an exchange, handed to `store` (see `recordingOf`), with the journal view that
   * shows it (already redacted, named by its file); with the log's outcome when it cannot be made or
   * stored (a `RedactionRefusedError`: redacting would break it; nothing is stored).
   */
  function store(forwarded: ForwardedRequest, got: UpstreamAnswer): Stored | { lost: Outcome } {
    try {
      const { recording, redactions } = recordingOf(forwarded, got, options.policy);
      const stored = options.store(recording);
      const view = journalView(journalFactsOf(forwarded, got), options.policy, { recording, file: stored.name });
      return { ...stored, recording, redactions, view };
    } catch (error) {
      const lost = { code: (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', message: errorText(error) };
      const note =
        error instanceof RedactionRefusedError ? 'NOT RECORDED: redaction refused' : `NOT RECORDED: ${lost.code}`;
      return { lost: { recorded: undefined, note, lost } };
    }
  }

  async function exchange(
    request: RouteRequest,
    res: ServerResponse,
    plan: PassPlan,
    answered: (sent: PassAnswer) => void,
  ): Promise<void> {
    const { route } = plan;
    const forwarded = forwardedRequest(request, route, upstream.host);
    const admitted = budget.admit();
    if (admitted) await admitted;
    const started = process.hrtime.bigint();
    // When the client got the upstream's answer (the log's `durationMs` ends there, not when the recording is in place).
    let answeredNs: bigint | undefined;
    const log = (status: number, { recorded, note, redactions = [], lost }: Outcome) =>
      options.onExchange?.({
        method: forwarded.method,
        operation: forwarded.operation,
        status,
        recorded,
        note,
        leaks: redactions.reduce((n, r) => n + r.count, 0),
        ...(redactions.length ? { redactions } : {}),
        durationMs: Number((answeredNs ?? process.hrtime.bigint()) - started) / 1e6,
        ...(lost ? { lost } : {}),
      });
    // What this exchange holds of the budget; given back when it ends, however it ends.
    let held = 0;
    try {
      const got = await askUpstream(pool, forwarded, {
        basePath,
        timeoutMs: options.timeoutMs,
        maxBodyBytes: limit,
        hold: (bytes) => {
          budget.take(bytes);
          held += bytes;
        },
      });
      if (got.kind !== 'answer') {
        const { answer, note } = problemAnswer(got, {
          upstream: upstream.origin,
          request: `${forwarded.method} ${forwarded.path}`,
          seconds: options.timeoutMs / 1000,
          limit,
        });
        const headers = deviceHeaders(answer.headers, plan);
        const gone = res.headersSent || res.destroyed;
        if (!gone) res.writeHead(answer.status, headers).end(answer.body);
        const { method, path, search, requestHeaders } = forwarded;
        const facts = { method, path, search, requestHeaders, status: answer.status, body: answer.body };
        answered({
          status: gone ? 0 : answer.status,
          headers,
          view: journalView({ ...facts, responseHeaders: flat(headers) }, options.policy),
        });
        return log(answer.status, { recorded: undefined, note });
      }
      /** Sends the upstream's answer as it came, through the one response step (its own content-security-policy never replaces ours); returns the headers sent. */
      let gone = false;
      const passBack = (match: PassAnswer['match']) => {
        const headers = deviceHeaders(passedBackHeaders(got.rawHeaders), match ? { ...plan, match } : plan);
        gone = res.destroyed;
        if (!gone) res.writeHead(got.status, headers).end(got.body);
        answeredNs = process.hrtime.bigint();
        return headers;
      };
      const sent = (headers: PassAnswer['headers'], view: JournalView, match: PassAnswer['match']) =>
        answered({ status: gone ? 0 : got.status, headers, view, ...(match ? { match } : {}) });
      /** The journal's view of an exchange not recorded: redacted as recordings are (never the raw answer), its body cut. */
      const unrecorded = () => journalView(journalFactsOf(forwarded, got), options.policy);
      const note = whyNotRecorded(route, forwarded.method, got.status, options);
      if (note) {
        const match = plan.marked ? 'passthrough' : undefined;
        sent(passBack(match), unrecorded(), match);
        return log(got.status, { recorded: undefined, note });
      }
      // Unmarked, nothing in the answer depends on the recording: the client gets it now, and the
      // recording is made and stored after. Marked, the answer says what became of the recording,
      // so it waits for the store; a lost exchange goes unmarked (a mark would claim it was recorded).
      const early = plan.marked ? undefined : passBack(undefined);
      const stored = store(forwarded, got);
      if ('lost' in stored) {
        sent(early ?? passBack(undefined), unrecorded(), undefined);
        return log(got.status, stored.lost);
      }
      if (early) sent(early, stored.view, undefined);
      const outcome = await record(forwarded, got, stored);
      if (!early) {
        const match = outcome.lost ? undefined : 'recorded';
        sent(passBack(match), stored.view, match);
      }
      log(got.status, outcome);
    } finally {
      budget.give(held);
    }
  }

  return {
    forward: (request, res, plan) =>
      new Promise<PassAnswer>((resolve, reject) => {
        const done = exchange(request, res, plan, resolve);
        // A rejection before the answer is the caller's (a fault of ours, answered 500); after it, nobody waits for it.
        done.catch(reject);
        const settled = done.catch(() => undefined);
        inFlight.add(settled);
        void settled.finally(() => inFlight.delete(settled));
      }),
    drain: async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    close: () => pool.close(),
  };
}
