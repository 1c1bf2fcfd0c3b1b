import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { OperationName } from '../../contract/core.js';
import type { Finding } from '../../findings/index.js';
import type { DeferredExchange, NewExchange } from '../../journal/journal.js';
import { journalView, keptBody, type JournalView } from '../../journal/journal-view.js';
import { decodeComponent, type NormalisationPolicy } from '../../normalise/index.js';
import { MATCH_HEADER, RECORDING_HEADER } from '../../replay/headers.js';
import { ANSWERED_BY_HEADER, FAULT_HEADER, FUZZ_HEADER } from '../../routes/index.js';
import { STEP_HEADER } from '../../state/client-state.js';
import type { ServerContext } from '../context.js';

function headerRecord(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

/** A sent header's value, or `null`. */
function sentHeader(headers: SentAnswer['headers'], name: string): string | null {
  return (headers[name] as string | undefined) ?? null;
}

/** A request to an operation, split as the journal needs it: `path` and raw `search` (without `?`) as sent. */
export interface OperationTarget {
  operation: OperationName;
  path: string;
  search: string;
}

/**
 * What was sent for one exchange: `status` 0 when no answer was (a reset, a hang, a client gone);
 * `body` as UTF-8 text; `view`, the recording proxy's redacted view of the exchange when it handed
 * one over (see `setJournalView`): then nothing raw of the exchange is kept.
 */
export interface SentAnswer {
  status: number;
  headers: OutgoingHttpHeaders | Readonly<Record<string, string>>;
  body: string;
  view?: JournalView | undefined;
}

/**
 * Journals one exchange with an operation once it is answered or the client went away (once):
 * `sent` tells what was sent, `durationMs` how long the answer took (milliseconds), `receivedAt`
 * when the request came (Unix time in milliseconds). Secrets are redacted by the same function as
 * recordings (`journalView`); a body is kept up to the journal's limit (`keptBody`). The scenario,
 * match and fault come from the sent headers `x-mockvideo-*` (fault `reset` when nothing was sent).
 *
 * The journal holds a reused {@link ExchangeRecord}: the request's path, query and headers copied
 * into its buffer, and references to what is shared (findings, the sent header block and body).
 * What only a reader of the journal needs (decoded query, header records, the ISO time, the
 * redaction) is made when it is first read, so a request pays for none of it, and keeps nothing new
 * on the heap (objects that outlive a scavenge grow V8's young generation, and with it the RSS).
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
  record.receivedAt = receivedAt;
  record.durationMs = Math.round(durationMs * 100) / 100;
  record.status = sent.status >= 100 ? sent.status : 0;
  record.operation = target.operation;
  record.method = req.method ?? 'GET';
  record.findings = findings;
  record.policy = context.policy;
  record.sentHeaders = sent.headers;
  // With the recording proxy's view, nothing raw of the exchange is kept.
  const { view } = sent;
  record.view = view;
  if (view) record.keep(target.path, '', NO_HEADERS);
  else {
    record.body = keptBody(sent.body);
    record.keep(target.path, target.search, req.headers);
  }
  context.journal.add(record, view ? view.responseBody.length : record.body.length);
}

const NO_HEADERS: IncomingHttpHeaders = {};
const NO_FINDINGS: readonly Finding[] = [];

/** The most bytes of a request's path, query and headers an {@link ExchangeRecord} copies into its own buffer; a larger request (or one with a character beyond latin1) keeps its strings. */
const RECORD_BYTES = 2048;
/** Records made at once, their buffers cut from one allocation. */
const SLAB_RECORDS = 32;
/** The most released records kept for reuse. */
const MAX_FREE_RECORDS = 4096;
/** Released records, reused by {@link journalExchange}. */
const free: ExchangeRecord[] = [];
let slab: Buffer | undefined;
let slabUsed = SLAB_RECORDS;

/** A {@link RECORD_BYTES} buffer of a record, cut from the current slab. */
function recordBuffer(): Buffer {
  if (slabUsed === SLAB_RECORDS) {
    slab = Buffer.allocUnsafeSlow(RECORD_BYTES * SLAB_RECORDS);
    slabUsed = 0;
  }
  return slab!.subarray(RECORD_BYTES * slabUsed, RECORD_BYTES * ++slabUsed);
}

const NOT_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * Writes `text` at `at` of `bytes` as its length (2 bytes, little-endian) and its characters, one
 * byte each (latin1: Node gives request targets and header values so); returns where the next one
 * goes, or -1 when it does not fit or has a character beyond latin1.
 */
function put(bytes: Buffer, at: number, text: string): number {
  const end = at + 2 + text.length;
  if (end > bytes.length || NOT_LATIN1.test(text)) return -1;
  bytes.write(text, at + 2, 'latin1');
  bytes[at] = text.length & 0xff;
  bytes[at + 1] = text.length >>> 8;
  return end;
}

/** Reads what {@link put} wrote at `at`; moves `at.offset` past it. */
function take(bytes: Buffer, at: { offset: number }): string {
  const length = bytes[at.offset]! | (bytes[at.offset + 1]! << 8);
  const text = bytes.toString('latin1', at.offset + 2, at.offset + 2 + length);
  at.offset += 2 + length;
  return text;
}

/**
 * What the journal keeps of one exchange until it is first read: plain values and references to
 * shared objects (findings, the sent header block and body), and the request's path, query and
 * header record copied into its own buffer, one byte per character (kept as strings when they do
 * not fit, or have a character beyond latin1). No request or socket object is kept. Reused once
 * the journal releases it.
 */
class ExchangeRecord implements DeferredExchange {
  receivedAt = 0.5;
  durationMs = 0.5;
  status = 0;
  operation: OperationName = 'meta/cp';
  method = 'GET';
  findings: readonly Finding[] = NO_FINDINGS;
  policy: NormalisationPolicy | undefined = undefined;
  view: JournalView | undefined = undefined;
  sentHeaders: SentAnswer['headers'] = NO_HEADERS;
  body = '';
  readonly bytes = recordBuffer();
  /** The end of what {@link keep} wrote to {@link bytes}; -1 when the request is in {@link path}, {@link search} and {@link requestHeaders}. */
  used = 0;
  path = '';
  search = '';
  requestHeaders: Record<string, string> | undefined = undefined;

  /** Keeps the request's path, raw query and the record of its headers (arrays joined with `, `), in {@link bytes} when they fit. */
  keep(path: string, search: string, headers: IncomingHttpHeaders): void {
    const { bytes } = this;
    let at = put(bytes, 0, path);
    if (at >= 0) at = put(bytes, at, search);
    for (const name in headers) {
      if (at < 0) break;
      const value = headers[name];
      if (value === undefined) continue;
      at = put(bytes, at, name);
      if (at >= 0) at = put(bytes, at, Array.isArray(value) ? value.join(', ') : String(value));
    }
    this.used = at;
    if (at < 0) {
      this.path = path;
      this.search = search;
      this.requestHeaders = headerRecord(headers);
    }
  }

  build(): NewExchange {
    let path = this.path;
    let search = this.search;
    let requestHeaders = this.requestHeaders;
    if (this.used >= 0) {
      const { bytes, used } = this;
      const at = { offset: 0 };
      path = take(bytes, at);
      search = take(bytes, at);
      requestHeaders = {};
      while (at.offset < used) {
        const name = take(bytes, at);
        requestHeaders[name] = take(bytes, at);
      }
    }
    return journalRecord(this, path, search, requestHeaders!);
  }

  release(): void {
    this.findings = NO_FINDINGS;
    this.policy = undefined;
    this.view = undefined;
    this.sentHeaders = NO_HEADERS;
    this.body = '';
    this.path = '';
    this.search = '';
    this.requestHeaders = undefined;
    if (free.length < MAX_FREE_RECORDS) free.push(this);
  }
}

/**
 * The journal's record of an exchange, made when the journal first reads it: the ISO time, the
 * decoded `query`, the redacted `rawQuery` and the header records (redacted by the same function
 * as recordings, see `journalView`).
 */
function journalRecord(
  record: ExchangeRecord,
  path: string,
  search: string,
  requestHeaders: Record<string, string>,
): NewExchange {
  const { sentHeaders: headers, status } = record;
  const view =
    record.view ??
    journalView(
      {
        method: record.method,
        path,
        search,
        requestHeaders,
        status,
        responseHeaders: headerRecord(headers as Record<string, unknown>),
        body: record.body,
      },
      record.policy!,
    );
  const { rawQuery } = view;
  // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
  const query = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
  const entry: NewExchange['entry'] = {
    time: new Date(record.receivedAt).toISOString(),
    operation: record.operation,
    query,
    scenario: sentHeader(headers, ANSWERED_BY_HEADER),
    status,
    durationMs: record.durationMs,
    findings: record.findings,
    match: sentHeader(headers, MATCH_HEADER),
    fault: sentHeader(headers, FAULT_HEADER) ?? (status >= 100 ? null : 'reset'),
  };
  // In replay, the recording that answered (the dashboard names it per row).
  const recording = sentHeader(headers, RECORDING_HEADER);
  if (recording !== null) entry.recording = recording;
  // Which step of a sequence the answer was (scenario stubs and replayed recordings).
  const step = sentHeader(headers, STEP_HEADER);
  if (step !== null) entry.step = step;
  // Under `serve --fuzz`, the case of the generated answer.
  const fuzzCase = sentHeader(headers, FUZZ_HEADER);
  if (fuzzCase !== null) entry.fuzz = fuzzCase;
  return {
    entry,
    method: record.method,
    path,
    rawQuery,
    requestHeaders: view.requestHeaders,
    responseHeaders: view.responseHeaders,
    responseBody: view.responseBody,
  };
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
