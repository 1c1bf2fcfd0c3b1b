import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { OperationName } from '../contract/core.js';
import type { Finding } from '../findings/index.js';
import type { JournalEntry, NewExchange } from '../journal/journal.js';
import { journalView, keptBody, type JournalView } from '../journal/journal-view.js';
import { decodeComponent, type NormalisationPolicy } from '../normalise/index.js';
import { MATCH_HEADER, RECORDING_HEADER } from '../replay/headers.js';
import { ANSWERED_BY_HEADER, FAULT_HEADER } from '../routes/index.js';
import { STEP_HEADER } from '../state/client-state.js';
import type { ServerContext } from './context.js';

function headerRecord(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
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
 * `sent` tells what was sent, `durationMs` how long the answer took (milliseconds). Secrets
 * are redacted by the same function as recordings (`journalView`); a body is kept up to the journal's
 * limit (`keptBody`). The scenario, match and fault come from the sent headers `x-mockvideo-*` (fault
 * `reset` when nothing was sent). What only a reader of the journal needs (decoded query, header
 * records, the ISO time) is made when it is first read, so a request pays for none of it.
 */
export function journalExchange(context: ServerContext, req: IncomingMessage, target: OperationTarget, findings: readonly Finding[], receivedAt: number, durationMs: number, sent: SentAnswer): void {
  const answered = sent.status >= 100;
  const { headers } = sent;
  const entry: Omit<JournalEntry, 'id' | 'time' | 'query'> = {
    operation: target.operation,
    scenario: sentHeader(headers, ANSWERED_BY_HEADER),
    status: answered ? sent.status : 0,
    durationMs: Math.round(durationMs * 100) / 100,
    findings,
    match: sentHeader(headers, MATCH_HEADER),
    fault: sentHeader(headers, FAULT_HEADER) ?? (answered ? null : 'reset'),
  };
  // In replay, the recording that answered (the dashboard names it per row).
  const recording = sentHeader(headers, RECORDING_HEADER);
  if (recording !== null) entry.recording = recording;
  // Which step of a sequence the answer was (scenario stubs and replayed recordings).
  const step = sentHeader(headers, STEP_HEADER);
  if (step !== null) entry.step = step;
  const { view } = sent;
  const method = req.method ?? 'GET';
  const facts: RecordFacts = view
    ? { receivedAt, method, target: { ...target, search: '' }, policy: context.policy, requestHeaders: {}, responseHeaders: {}, responseBody: '', view }
    : { receivedAt, method, target, policy: context.policy, requestHeaders: req.headers, responseHeaders: sent.headers, responseBody: keptBody(sent.body), view };
  context.journal.add(deferredRecord(entry, facts), view ? view.responseBody.length : facts.responseBody.length);
}

/**
 * The record of an exchange, made when first read. A function of its own, so that what the journal
 * keeps holds the facts only: a closure made inside {@link journalExchange} would keep its request
 * and response objects alive.
 */
function deferredRecord(known: Omit<JournalEntry, 'id' | 'time' | 'query'>, facts: RecordFacts): () => NewExchange {
  return () => journalRecord(known, facts);
}

/** What {@link journalRecord} needs to know of an exchange: plain values, no request or socket object. */
interface RecordFacts {
  receivedAt: number;
  method: string;
  target: OperationTarget;
  policy: NormalisationPolicy;
  requestHeaders: IncomingHttpHeaders;
  responseHeaders: OutgoingHttpHeaders | Readonly<Record<string, string>>;
  responseBody: string;
  view: JournalView | undefined;
}

/**
 * The journal's record of an exchange, made from plain facts when the journal is first read (no
 * request or socket object is kept): the ISO time, the decoded `query`, the redacted `rawQuery`
 * and the header records. `receivedAt` is Unix time in milliseconds.
 */
function journalRecord(known: Omit<JournalEntry, 'id' | 'time' | 'query'>, facts: RecordFacts): NewExchange {
  const { policy, target } = facts;
  // Redacted by the same function as recordings (see journalView).
  const view =
    facts.view ??
    journalView(
      { method: facts.method, path: target.path, search: target.search, requestHeaders: headerRecord(facts.requestHeaders), status: known.status, responseHeaders: headerRecord(facts.responseHeaders as Record<string, unknown>), body: facts.responseBody },
      policy,
    );
  const { rawQuery } = view;
  // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
  const query = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
  const { operation, ...rest } = known;
  return {
    entry: { time: new Date(facts.receivedAt).toISOString(), operation, query, ...rest },
    method: facts.method,
    path: target.path,
    rawQuery,
    requestHeaders: view.requestHeaders,
    responseHeaders: view.responseHeaders,
    responseBody: view.responseBody,
  };
}

/**
 * Keeps what is written to `res` (through `write` and `end`); the function gives it as UTF-8 text.
 * Strings are taken in their encoding (default UTF-8). Used where the body is written by someone
 * else (msw through http-middleware, the recording proxy) and the journal needs it.
 */
export function captureBody(res: ServerResponse): () => string {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
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
