import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { SERVICE_TOKEN_PLACEHOLDER, operationOfPath, type OperationName } from '../contract/core.js';
import { queryFindings, type Finding } from '../findings/index.js';
import { FAULT_HEADER } from '../handlers/scenario-answer.js';
import { ANSWERED_BY_HEADER } from '../handlers/select-scenario.js';
import type { JournalEntry, NewExchange } from '../journal/index.js';
import { decodeComponent, splitQuery, type NormalisationPolicy, type RawPair } from '../normalise/index.js';
import { MATCH_HEADER } from '../replay/headers.js';
import { STEP_HEADER } from '../state/client-state.js';
import type { ServerContext } from './context.js';

/** The response header that counts the contract findings of a request. */
export const FINDINGS_HEADER = 'x-mockvideo-findings';

function hasBody(req: IncomingMessage): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return length > 0 || req.headers['transfer-encoding'] !== undefined;
}

function headerRecord(headers: Record<string, unknown>, redacted: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = redacted.includes(name.toLowerCase()) ? '<REDACTED>' : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** A request to an operation, split as the journal needs it: `path` and raw `search` (without `?`) as sent. */
export interface OperationTarget {
  operation: OperationName;
  path: string;
  search: string;
}

/** The operation a request target (`/api/g1/meta/cp?x=1`) goes to, split into path and raw query; `undefined` when it is not an operation. */
export function operationTarget(target: string): OperationTarget | undefined {
  const at = target.indexOf('?');
  const path = at < 0 ? target : target.slice(0, at);
  const operation = operationOfPath(path);
  return operation ? { operation, path, search: at < 0 ? '' : target.slice(at + 1) } : undefined;
}

/** The contract findings of a request to an operation (see `queryFindings`: shared and frozen, never change them); `nowSeconds`: the server's clock (default real time). */
export function findingsOf(req: IncomingMessage, target: OperationTarget, nowSeconds?: number): readonly Finding[] {
  return queryFindings(target.operation, target.search, hasBody(req), nowSeconds);
}

/** The 400 answer body of `--strict-requests` for a request with findings. */
export function strictRequestsError(findings: readonly Finding[]) {
  return { error: `This request breaks the contract (${findings.length} finding${findings.length === 1 ? '' : 's'}); --strict-requests answers it with 400.`, findings };
}

/**
 * Journals one exchange with an operation once `res` is answered or the client went away
 * (whichever comes first; once). Sets the `x-mockvideo-findings` header to the count of `findings`.
 * Secrets are redacted; `responseBody` gives the body text sent (read when the exchange ends).
 * The scenario, match and fault come from the response headers `x-mockvideo-*`. What only a reader
 * of the journal needs (decoded query, header records, the ISO time) is made when it is first read,
 * so a request pays for none of it.
 */
export function journalExchange(context: ServerContext, req: IncomingMessage, res: ServerResponse, target: OperationTarget, findings: readonly Finding[], responseBody: () => string): void {
  const receivedAt = Date.now();
  const start = process.hrtime.bigint();
  res.setHeader(FINDINGS_HEADER, String(findings.length));
  const journal = () => {
    const answered = res.headersSent && res.statusCode >= 100;
    const entry: Omit<JournalEntry, 'id' | 'time' | 'query'> = {
      operation: target.operation,
      scenario: (res.getHeader(ANSWERED_BY_HEADER) as string | undefined) ?? null,
      status: answered ? res.statusCode : 0,
      durationMs: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
      findings,
      match: (res.getHeader(MATCH_HEADER) as string | undefined) ?? null,
      fault: (res.getHeader(FAULT_HEADER) as string | undefined) ?? (answered ? null : 'reset'),
      step: (res.getHeader(STEP_HEADER) as string | undefined) ?? null,
    };
    const facts = { receivedAt, method: req.method ?? 'GET', target, policy: context.policy, requestHeaders: req.headers, responseHeaders: res.getHeaders(), responseBody: responseBody() };
    context.journal.add(deferredRecord(entry, facts));
  };
  // A response emits 'close' once in every case: after 'finish' when it was sent, or when the client went away.
  res.on('close', journal);
}

/**
 * The record of an exchange, made when first read. A function of its own, so that what the journal
 * keeps holds the facts only: a closure made inside {@link journalExchange} would keep its request
 * and response objects alive (measured: each of the 1,000 journaled exchanges kept both).
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
  responseHeaders: OutgoingHttpHeaders;
  responseBody: string;
}

/**
 * The journal's record of an exchange, made from plain facts when the journal is first read (no
 * request or socket object is kept): the ISO time, the decoded `query`, the redacted `rawQuery`
 * and the header records. `receivedAt` is Unix time in milliseconds.
 */
function journalRecord(
  known: Omit<JournalEntry, 'id' | 'time' | 'query'>,
  facts: RecordFacts,
): NewExchange {
  const { policy } = facts;
  const rawQuery: RawPair[] = splitQuery(facts.target.search).map(([name, value]) => [name, policy.secret.includes(decodeComponent(name)) ? SERVICE_TOKEN_PLACEHOLDER : value]);
  // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
  const query = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
  const { operation, ...rest } = known;
  return {
    entry: { time: new Date(facts.receivedAt).toISOString(), operation, query, ...rest },
    method: facts.method,
    path: facts.target.path,
    rawQuery,
    requestHeaders: headerRecord(facts.requestHeaders, policy.headers),
    responseHeaders: headerRecord(facts.responseHeaders, policy.headers),
    responseBody: facts.responseBody,
  };
}

/**
 * Keeps what is written to `res` (through `write` and `end`); the function gives it as UTF-8 text.
 * Strings are taken in their encoding (default UTF-8). Used where the body is written by someone
 * else (Express and msw, the recording proxy) and the journal needs it.
 */
export function captureBody(res: ServerResponse): () => string {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
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

/**
 * Express middleware for requests to operations: checks the request against the contract (the count
 * goes into the `x-mockvideo-findings` header; with `strictRequests` a request with findings gets a
 * 400 listing them), then journals the exchange (see {@link journalExchange}). Other requests pass untouched.
 */
export function journalMiddleware(context: ServerContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const target = operationTarget(req.originalUrl);
    if (!target) return next();
    const findings = findingsOf(req, target, context.responder.clock.nowSeconds());
    journalExchange(context, req, res, target, findings, captureBody(res));
    if (context.strictRequests && findings.length) {
      res.status(400).json(strictRequestsError(findings));
      return;
    }
    next();
  };
}
