import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { OperationName } from '../../contract/core.js';
import type { Finding } from '../../findings/index.js';
import type { DeferredExchange, NewExchange } from '../../journal/journal.js';
import { answerSize, journalView, type JournalView } from '../../journal/journal-view.js';
import { decodeComponent, type NormalisationPolicy } from '../../normalise/index.js';
import { flatValue } from '../../contract/http-wire.js';
import type { Plan } from '../../routes/index.js';
import type { ServerContext } from '../context.js';

/** A request to an operation, split as the journal needs it: `path` and raw `search` (without `?`) as sent. */
export interface OperationTarget {
  operation: OperationName;
  path: string;
  search: string;
}

/**
 * What was sent for one exchange: `status` 0 when no answer was (a reset, a hang, a client gone);
 * `body` as UTF-8 text or bytes; `view`, the recording proxy's redacted view of the exchange (see
 * `PassAnswer`): then nothing raw of the exchange is kept.
 */
export interface SentAnswer {
  status: number;
  headers: OutgoingHttpHeaders | Readonly<Record<string, string>>;
  body: string | Uint8Array;
  view?: JournalView | undefined;
}

/**
 * Journals one exchange with an operation once it is answered or the client went away (once):
 * `plan` is what the routes decided (scenario, match, recording, step, fault, fuzz case: read from
 * the plan, never from the headers sent; a `drop` is journaled as its `reset` or `hang`, the wait a
 * client left as its planned `delayMs`), `sent` what was sent (status 0: nothing), `durationMs` how
 * long the answer took (milliseconds), `receivedAt` when the request came (Unix time in
 * milliseconds). Secrets are redacted by the same function as recordings (`journalView`); the body
 * is kept whole, by reference to what was sent (a scenario's answer is one buffer shared by every
 * request that got it), and counted whole in the journal's bound of bytes: a start-up's bundle
 * holds the exact bytes (see docs/bundles.md). With the recording proxy's view (`sent.view`),
 * nothing raw of the exchange is kept.
 *
 * The journal keeps an {@link ExchangeRecord} and makes the record, its redaction and the decoded
 * query only when it is first read: a request that no one looks at pays for none of it.
 */
export function journalExchange(
  context: ServerContext,
  req: IncomingMessage,
  target: OperationTarget,
  plan: Plan,
  receivedAt: number,
  durationMs: number,
  sent: SentAnswer,
): void {
  const record = free.pop() ?? new ExchangeRecord();
  const { view } = sent;
  record.receivedAt = receivedAt;
  record.durationMs = Math.round(durationMs * 100) / 100;
  record.status = sent.status >= 100 ? sent.status : 0;
  record.operation = target.operation;
  record.method = req.method ?? 'GET';
  record.findings = plan.findings;
  record.scenario = plan.scenario;
  record.match = plan.match;
  record.recording = plan.recording;
  record.step = plan.step;
  record.fault = plan.fault;
  record.fuzz = plan.fuzz;
  record.delayMs = (plan.kind === 'answer' || plan.kind === 'drop') && plan.delayMs > 0 ? plan.delayMs : 0;
  record.policy = context.policy;
  record.view = view;
  record.body = view ? '' : sent.body;
  record.keep(target.path, view ? '' : target.search, view ? NO_HEADERS : req.headers, sent.headers);
  context.journal.add(record, view ? answerSize(view.answerBody) : record.body.length);
}

type HeaderFacts = Readonly<Record<string, string | number | readonly string[] | undefined>>;
const NO_FINDINGS: readonly Finding[] = [];
const NO_HEADERS: HeaderFacts = Object.freeze({});
/**
 * What separates the facts an {@link ExchangeRecord} keeps: NUL, which none of them can hold (a
 * request target and header values as Node's parser takes them, RFC 9112 §3.2 and RFC 9110 §5.5;
 * header names are tokens; what mockvideo sends is sendable, see `sendableValue`).
 */
const SEPARATOR = '\u0000';

/** `headers` as text: `SEPARATOR name SEPARATOR value` for each (one text value each, see `flatValue`). */
function headersText(headers: HeaderFacts): string {
  let text = '';
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) text += SEPARATOR + name + SEPARATOR + flatValue(value)!;
  }
  return text;
}

/** Headers read back from `parts` (names and values in turn) from `from` to `to`. */
function readHeaders(parts: readonly string[], from: number, to: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = from; i + 1 < to; i += 2) headers[parts[i]!] = parts[i + 1]!;
  return headers;
}

/** The most bytes of the facts (as text) an {@link ExchangeRecord} holds in its own buffer; larger ones stay a string. */
const RECORD_BYTES = 4096;
/** The most released records kept for reuse. */
const MAX_FREE_RECORDS = 4096;
/** Released records, reused by {@link journalExchange}. */
const free: ExchangeRecord[] = [];

/**
 * What the journal keeps of one exchange until it is first read, reused once the journal releases
 * it: plain values, references to what is shared (findings, the answer's body), and the facts made
 * per request (path, query, request and sent headers) as text in its own buffer. So a request
 * leaves no new object on the heap to outlive a scavenge (they made V8's collector work twice as
 * much): with the facts kept as objects in a closure, `serve` took 43.3 instead of 38.7 µs of CPU
 * per request (+12%; median of 8 interleaved rounds of 15,000 requests on the bench's `serve`
 * case, Node 20, issue 32). The text is the facts joined by {@link SEPARATOR}, not JSON: with
 * `JSON.stringify` (4% of the samples alone, escaping the 600-character query) the journal took 11%
 * of `serve`'s CPU samples, now 8% (`perf record` of the bench's `serve` case, Node 20, 2 December).
 */
class ExchangeRecord implements DeferredExchange {
  readonly bytes = Buffer.allocUnsafeSlow(RECORD_BYTES);
  /** The length of the facts in {@link bytes}; -1 when they are in {@link text}. */
  used = 0;
  /** The facts when they do not fit in {@link bytes}. */
  text = '';
  /** Where the request's headers end in the facts, in UTF-16 units of their text. */
  requestEnd = 0;
  receivedAt = 0.5;
  durationMs = 0.5;
  status = 0;
  operation: OperationName = 'meta/cp';
  method = 'GET';
  findings: readonly Finding[] = NO_FINDINGS;
  scenario: string | undefined = undefined;
  match: string | undefined = undefined;
  recording: string | undefined = undefined;
  step: string | undefined = undefined;
  fault: string | undefined = undefined;
  fuzz: string | undefined = undefined;
  /** The wait planned before the answer or the drop, in milliseconds (0: none). */
  delayMs = 0;
  policy: NormalisationPolicy | undefined = undefined;
  view: JournalView | undefined = undefined;
  body: string | Uint8Array = '';

  /**
   * Keeps the facts: path, raw query, the request's headers and the headers sent, joined by
   * {@link SEPARATOR}, in {@link bytes} when they fit.
   */
  keep(path: string, search: string, requestHeaders: HeaderFacts, sentHeaders: HeaderFacts): void {
    const request = path + SEPARATOR + search + headersText(requestHeaders);
    const facts = request + headersText(sentHeaders);
    this.requestEnd = request.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long text needs counting.
    const fits = facts.length * 3 <= RECORD_BYTES || Buffer.byteLength(facts) <= RECORD_BYTES;
    this.used = fits ? this.bytes.write(facts, 'utf8') : -1;
    this.text = fits ? '' : facts;
  }

  /**
   * The journal's record of the exchange, made when the journal first reads it: the ISO time, the
   * decoded `query`, the redacted `rawQuery` and the header records (redacted by the same function
   * as recordings, see `journalView`).
   */
  build(): NewExchange {
    const facts = this.used < 0 ? this.text : this.bytes.toString('utf8', 0, this.used);
    const parts = facts.split(SEPARATOR);
    const [path = '', search = ''] = parts;
    // The parts up to `requestEnd` are the path, the query and the request's headers.
    const requestParts = facts.slice(0, this.requestEnd).split(SEPARATOR).length;
    const { status, body, method } = this;
    const headers = readHeaders(parts, requestParts, parts.length);
    const { rawQuery, ...kept } =
      this.view ??
      journalView(
        {
          method,
          path,
          search,
          requestHeaders: readHeaders(parts, 2, requestParts),
          status,
          responseHeaders: headers,
          body,
        },
        this.policy!,
      );
    // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
    const query = Object.create(null) as Record<string, string[]>;
    for (const [name, value] of rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
    const entry: NewExchange['entry'] = {
      time: new Date(this.receivedAt).toISOString(),
      operation: this.operation,
      query,
      scenario: this.scenario ?? null,
      status,
      durationMs: this.durationMs,
      findings: this.findings,
      match: this.match ?? null,
      fault: this.fault ?? null,
    };
    // In replay, the recording that answered (the dashboard names it per row).
    if (this.recording !== undefined) entry.recording = this.recording;
    // Which step of a sequence the answer was (scenario stubs and replayed recordings).
    if (this.step !== undefined) entry.step = this.step;
    // Under `serve --fuzz`, the case of the generated answer.
    if (this.fuzz !== undefined) entry.fuzz = this.fuzz;
    // The wait planned before the answer or the drop (a `delay` fault, a recorded latency, a hang): with status 0, the one the client left during.
    if (this.delayMs > 0) entry.delayMs = this.delayMs;
    return { entry, method, path, rawQuery, ...kept };
  }

  release(): void {
    this.findings = NO_FINDINGS;
    this.scenario = this.match = this.recording = this.step = this.fault = this.fuzz = undefined;
    this.delayMs = 0;
    this.policy = undefined;
    this.view = undefined;
    this.body = '';
    this.text = '';
    if (free.length < MAX_FREE_RECORDS) free.push(this);
  }
}
