import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { OperationName } from '../../contract/core.js';
import type { Finding } from '../../findings/index.js';
import type { DeferredExchange, NewExchange } from '../../journal/journal.js';
import { journalView, keptBody, type JournalView } from '../../journal/journal-view.js';
import { decodeComponent, type NormalisationPolicy } from '../../normalise/index.js';
import { MATCH_HEADER, RECORDING_HEADER } from '../../replay/headers.js';
import { ANSWERED_BY_HEADER, FAULT_HEADER, FUZZ_HEADER } from '../../routes/index.js';
import { STEP_HEADER } from '../../state/client-state.js';
import type { ServerContext } from '../context.js';

/** Headers as one text value each (lists joined with `, `). */
function headerRecord(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

/** A request to an operation, split as the journal needs it: `path` and raw `search` (without `?`) as sent. */
export interface OperationTarget {
  operation: OperationName;
  path: string;
  search: string;
}

/**
 * What was sent for one exchange: `status` 0 when no answer was (a reset, a hang, a client gone);
 * `body` as UTF-8 text or bytes; `view`, the recording proxy's redacted view of the exchange when it handed
 * one over (see `setJournalView`): then nothing raw of the exchange is kept.
 */
export interface SentAnswer {
  status: number;
  headers: OutgoingHttpHeaders | Readonly<Record<string, string>>;
  body: string | Uint8Array;
  view?: JournalView | undefined;
}

/**
 * Journals one exchange with an operation once it is answered or the client went away (once):
 * `sent` tells what was sent, `durationMs` how long the answer took (milliseconds), `receivedAt`
 * when the request came (Unix time in milliseconds). Secrets are redacted by the same function as
 * recordings (`journalView`); a body is kept up to the journal's limit (`keptBody`). The scenario,
 * match and fault come from the sent headers `x-mockvideo-*` (fault `reset` when nothing was sent).
 * With the recording proxy's view (`sent.view`), nothing raw of the exchange is kept.
 *
 * The journal keeps an {@link ExchangeRecord} and makes the record, its redaction and the decoded
 * query only when it is first read: a request that no one looks at pays for none of it.
 */
export function journalExchange(
  context: ServerContext,
  req: IncomingMessage,
  target: OperationTarget,
  findings: readonly Finding[],
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
  record.findings = findings;
  record.policy = context.policy;
  record.view = view;
  record.body = view ? '' : typeof sent.body === 'string' ? keptBody(sent.body) : sent.body;
  record.keep(JSON.stringify([target.path, view ? '' : target.search, view ? {} : req.headers, sent.headers]));
  context.journal.add(record, view ? view.responseBody.length : record.body.length);
}

type HeaderFacts = Readonly<Record<string, unknown>>;
const NO_FINDINGS: readonly Finding[] = [];
/** The most bytes of the facts (as JSON) an {@link ExchangeRecord} holds in its own buffer; larger ones stay a string. */
const RECORD_BYTES = 4096;
/** The most released records kept for reuse. */
const MAX_FREE_RECORDS = 4096;
/** Released records, reused by {@link journalExchange}. */
const free: ExchangeRecord[] = [];

/**
 * What the journal keeps of one exchange until it is first read, reused once the journal releases
 * it: plain values, references to what is shared (findings, the answer's body), and the facts made
 * per request (path, query, request and sent headers) as JSON in its own buffer. So a request
 * leaves no new object on the heap to outlive a scavenge (they made V8's collector work twice as
 * much): with the facts kept as objects in a closure, `serve` took 43.3 instead of 38.7 µs of CPU
 * per request (+12%; median of 8 interleaved rounds of 15,000 requests on the bench's `serve`
 * case, Node 20, issue 32).
 */
class ExchangeRecord implements DeferredExchange {
  readonly bytes = Buffer.allocUnsafeSlow(RECORD_BYTES);
  /** The length of the facts in {@link bytes}; -1 when they are in {@link json}. */
  used = 0;
  json = '';
  receivedAt = 0.5;
  durationMs = 0.5;
  status = 0;
  operation: OperationName = 'meta/cp';
  method = 'GET';
  findings: readonly Finding[] = NO_FINDINGS;
  policy: NormalisationPolicy | undefined = undefined;
  view: JournalView | undefined = undefined;
  body: string | Uint8Array = '';

  /** Keeps the facts (JSON), in {@link bytes} when they fit. */
  keep(json: string): void {
    const fits = Buffer.byteLength(json) <= RECORD_BYTES;
    this.used = fits ? this.bytes.write(json, 'utf8') : -1;
    this.json = fits ? '' : json;
  }

  /**
   * The journal's record of the exchange, made when the journal first reads it: the ISO time, the
   * decoded `query`, the redacted `rawQuery` and the header records (redacted by the same function
   * as recordings, see `journalView`).
   */
  build(): NewExchange {
    const facts = this.used < 0 ? this.json : this.bytes.toString('utf8', 0, this.used);
    const [path, search, sentRequestHeaders, sentHeaders] = JSON.parse(facts) as [
      string,
      string,
      HeaderFacts,
      HeaderFacts,
    ];
    const { status, body, method } = this;
    const headers = headerRecord(sentHeaders);
    const { rawQuery, ...kept } =
      this.view ??
      journalView(
        {
          method,
          path,
          search,
          requestHeaders: headerRecord(sentRequestHeaders),
          status,
          responseHeaders: headers,
          body: typeof body === 'string' ? body : new TextDecoder().decode(body),
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
      scenario: headers[ANSWERED_BY_HEADER] ?? null,
      status,
      durationMs: this.durationMs,
      findings: this.findings,
      match: headers[MATCH_HEADER] ?? null,
      fault: headers[FAULT_HEADER] ?? (status >= 100 ? null : 'reset'),
    };
    // In replay, the recording that answered (the dashboard names it per row).
    if (headers[RECORDING_HEADER] !== undefined) entry.recording = headers[RECORDING_HEADER];
    // Which step of a sequence the answer was (scenario stubs and replayed recordings).
    if (headers[STEP_HEADER] !== undefined) entry.step = headers[STEP_HEADER];
    // Under `serve --fuzz`, the case of the generated answer.
    if (headers[FUZZ_HEADER] !== undefined) entry.fuzz = headers[FUZZ_HEADER];
    return { entry, method, path, rawQuery, ...kept };
  }

  release(): void {
    this.findings = NO_FINDINGS;
    this.policy = undefined;
    this.view = undefined;
    this.body = '';
    this.json = '';
    if (free.length < MAX_FREE_RECORDS) free.push(this);
  }
}

/**
 * Keeps what is written to `res` (through `write` and `end`); the function gives it as UTF-8 text.
 * Strings are taken in their encoding (default UTF-8). Used where the body is written by someone
 * else (the msw engine, the recording proxy) and the journal needs it.
 */
export function captureBody(res: ServerResponse): () => string {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    );
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
  return () => (chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
}
