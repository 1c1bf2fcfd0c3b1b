import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { journalView, type JournalFacts, type JournalView } from '../journal/journal-view.js';
import {
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
import { lostOutcome, type Outcome, type ProxyLogEntry } from './exchange-log.js';
import { forwardedRequest, type ForwardedRequest } from './forward.js';
import { passBack, whenSent, type PassedBack } from './pass-back.js';
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
   * waiting for the disk, waiting for a slow client to read them, `timeoutMs` at most) before new ones wait to be
   * forwarded (see `InFlightBudget`; a larger body still goes, alone). Default {@link DEFAULT_MAX_IN_FLIGHT_BYTES}.
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

/** The key of a route's answers' sizes: its operation, or its kind (`upgrade`). */
function routeKey(route: PassPlan['route']): string {
  return route.kind === 'operation' ? route.operation : route.kind;
}

/** A recording handed to the store: its name and write, what was redacted, and the journal view that shows it. */
interface Stored {
  name: string;
  written: Promise<unknown>;
  recording: Recording;
  redactions: RedactedExchange['redactions'];
  view: JournalView;
  /** The exchange's journal facts without the upstream's body (the recording holds it, redacted). */
  facts: JournalFacts;
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
  const budget = new InFlightBudget(options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES);
  // What an exchange reserves of the budget: the size its route's last answer came to (answers of
  // one operation are alike), before any an eighth of the budget: a burst of first requests goes
  // eight at a time, and 60 slow readers of 5 MiB do not all hold their bodies at once.
  const lastSize = new Map<string, number>();
  const reserveOf = (route: PassPlan['route']) => lastSize.get(routeKey(route)) ?? Math.ceil(budget.limit / 8);

  /** Waits for a stored recording (see {@link store}): a failure to write it is reported as `lost`, never thrown. */
  async function record(stored: Stored): Promise<Outcome> {
    try {
      await stored.written;
      options.onRecorded?.({ name: stored.name, recording: stored.recording });
      const note = stored.redactions.length ? `redacted ${describeRedactions(stored.redactions)}` : '';
      return { recorded: stored.name, note, redactions: stored.redactions };
    } catch (error) {
      // The client still gets the upstream's answer; the loss is reported, never hidden in a note.
      // The journal names no recording that is not there: the view handed over is changed in place.
      Object.assign(stored.view, journalView(stored.facts, options.policy, { recording: stored.recording }));
      return lostOutcome(error);
    }
  }

  /**
   * The recording of an exchange, handed to `store` (see `recordingOf`), with the journal view that
   * shows it (already redacted, named by its file); with the log's outcome when it cannot be made or
   * stored (a `RedactionRefusedError`: redacting would break it; nothing is stored). What it returns
   * holds nothing of the upstream's answer but the recording.
   */
  function store(forwarded: ForwardedRequest, got: UpstreamAnswer): Stored | { lost: Outcome } {
    try {
      const { recording, redactions } = recordingOf(forwarded, got, options.policy);
      const stored = options.store(recording);
      const facts = { ...journalFactsOf(forwarded, got), body: '' };
      // Nothing redacted in the body: the journal keeps the upstream's bytes, not a copy of them.
      const bytes = redactions.some((r) => r.where === 'response.body') ? undefined : got.plain;
      const view = journalView(facts, options.policy, { recording, file: stored.name, bytes });
      return { ...stored, recording, redactions, view, facts };
    } catch (error) {
      return { lost: lostOutcome(error) };
    }
  }

  /**
   * One exchange. Resolves when it is over, its recording stored or dropped (`answered` hears what
   * was sent before that). It holds its share of the budget until then and until the client has
   * the whole answer (back-pressure: a slow reader's socket holds the body); the upstream's answer
   * is let go once the client is answered, so that what waits for the disk is the recording alone.
   */
  async function exchange(
    request: RouteRequest,
    res: ServerResponse,
    plan: PassPlan,
    answered: (sent: PassAnswer) => void,
  ): Promise<void> {
    const { route } = plan;
    const forwarded = forwardedRequest(request, route, upstream.host);
    const admitted = budget.admit(() => reserveOf(route), 2);
    const share = admitted instanceof Promise ? await admitted : admitted;
    const started = process.hrtime.bigint();
    // `answeredNs`: when the client got the upstream's answer (the log's `durationMs` ends there, not when the recording is in place).
    const log = (status: number, { recorded, note, redactions = [], lost }: Outcome, answeredNs?: bigint) =>
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
    const sent = (status: number, { headers, gone }: PassedBack, view: JournalView, match?: PassAnswer['match']) =>
      answered({ status: gone ? 0 : status, headers, view, ...(match ? { match } : {}) });
    // The recording's way to the disk once the client is answered, which `forward` does not wait
    // for. No closure here holds `got`: when this function returns, only the writer holds the
    // recording and the socket what it still sends (6 clients × 300 exchanges of 1 MiB held every
    // answer until its recording was written: 514 MiB RSS).
    let rest: Promise<void> | undefined;
    try {
      const got = await askUpstream(pool, forwarded, {
        basePath,
        timeoutMs: options.timeoutMs,
        maxBodyBytes: limit,
        hold: share.take,
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
        const view = journalView({ ...facts, responseHeaders: flat(headers) }, options.policy);
        sent(answer.status, { headers, gone, at: 0n }, view);
        return log(answer.status, { recorded: undefined, note });
      }
      const { status } = got;
      lastSize.set(routeKey(route), share.taken);
      const note = whyNotRecorded(route, forwarded.method, status, options);
      if (note) {
        const match = plan.marked ? 'passthrough' : undefined;
        const passed = passBack(res, got, plan, match);
        // Redacted as recordings are (never the raw answer), its body cut.
        sent(status, passed, journalView(journalFactsOf(forwarded, got), options.policy), match);
        return log(status, { recorded: undefined, note }, passed.at);
      }
      const stored = store(forwarded, got);
      if ('lost' in stored) {
        // A lost exchange goes unmarked (a mark would claim it was recorded).
        const passed = passBack(res, got, plan, undefined);
        sent(status, passed, journalView(journalFactsOf(forwarded, got), options.policy));
        return log(status, stored.lost, passed.at);
      }
      // Unmarked, nothing in the answer depends on the recording: the client gets it now, and the
      // recording goes on to the disk after. Marked, the answer says what became of the recording,
      // so it waits for the store.
      if (!plan.marked) {
        const passed = passBack(res, got, plan, undefined);
        sent(status, passed, stored.view);
        rest = record(stored).then((outcome) => log(status, outcome, passed.at));
        // Adopted: the exchange is over once its recording is.
        return rest;
      }
      const outcome = await record(stored);
      const match = outcome.lost ? undefined : 'recorded';
      const passed = passBack(res, got, plan, match);
      sent(status, passed, stored.view, match);
      log(status, outcome, passed.at);
    } finally {
      // The share's two ends: the client has the whole answer (or is gone, or had `timeoutMs` to
      // read it, as long as the upstream had to send it), the recording is stored (or dropped).
      whenSent(res, share.release, options.timeoutMs);
      if (rest) void rest.then(share.release, share.release);
      else share.release();
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
