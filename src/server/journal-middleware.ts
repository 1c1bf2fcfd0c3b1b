import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { SERVICE_TOKEN_PLACEHOLDER, operationOfPath, type OperationName } from '../contract/index.js';
import { requestFindings, type Finding } from '../findings/index.js';
import { FAULT_HEADER } from '../handlers/scenario-answer.js';
import { ANSWERED_BY_HEADER } from '../handlers/select-scenario.js';
import type { JournalEntry, JournalExchange } from '../journal/index.js';
import { decodeComponent, splitQuery, type NormalisationPolicy } from '../normalise/index.js';
import { MATCH_HEADER } from '../replay/replayer.js';
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

/** The contract findings of a request to an operation (see `requestFindings`). */
export function findingsOf(req: IncomingMessage, target: OperationTarget): Finding[] {
  return requestFindings({ operation: target.operation, query: splitQuery(target.search), hasBody: hasBody(req) });
}

/** The 400 answer body of `--strict-requests` for a request with findings. */
export function strictRequestsError(findings: readonly Finding[]) {
  return { error: `This request breaks the contract (${findings.length} finding${findings.length === 1 ? '' : 's'}); --strict-requests answers it with 400.`, findings };
}

/** Makes `key` of `target` computed on its first read, then kept: an enumerable field like any other (JSON and copies see it). */
function computedOnRead<T extends object>(target: T, key: keyof T & string, compute: () => unknown): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute();
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
}

/**
 * Journals one exchange with an operation once `res` is answered or the client went away
 * (whichever comes first; once). Sets the `x-mockvideo-findings` header to the count of `findings`.
 * Secrets are redacted; `responseBody` gives the body text sent (read when the exchange ends).
 * The scenario, match and fault come from the response headers `x-mockvideo-*`. What only a reader
 * of the journal needs (decoded query, header records, the ISO time) is computed when first read,
 * so a request pays for none of it.
 */
export function journalExchange(context: ServerContext, req: IncomingMessage, res: ServerResponse, target: OperationTarget, findings: Finding[], responseBody: () => string): void {
  const receivedAt = Date.now();
  const start = process.hrtime.bigint();
  res.setHeader(FINDINGS_HEADER, String(findings.length));
  let journaled = false;
  const journal = () => {
    if (journaled) return;
    journaled = true;
    const answered = res.headersSent && res.statusCode >= 100;
    const entry: Omit<JournalEntry, 'time' | 'query'> = {
      id: 0,
      operation: target.operation,
      scenario: (res.getHeader(ANSWERED_BY_HEADER) as string | undefined) ?? null,
      status: answered ? res.statusCode : 0,
      durationMs: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
      findings,
      match: (res.getHeader(MATCH_HEADER) as string | undefined) ?? null,
      fault: (res.getHeader(FAULT_HEADER) as string | undefined) ?? (answered ? null : 'reset'),
    };
    context.journal.add(journalRecord(entry, { receivedAt, method: req.method ?? 'GET', target, policy: context.policy, requestHeaders: req.headers, responseHeaders: res.getHeaders(), responseBody: responseBody() }));
  };
  res.on('finish', journal);
  res.on('close', journal);
}

/**
 * The journal's record of an exchange from plain facts (no request or socket object is kept):
 * `time`, the decoded `query`, the redacted `rawQuery` and the header records are computed when
 * first read. `receivedAt` is Unix time in milliseconds.
 */
function journalRecord(
  known: Omit<JournalEntry, 'time' | 'query'>,
  facts: { receivedAt: number; method: string; target: OperationTarget; policy: NormalisationPolicy; requestHeaders: IncomingHttpHeaders; responseHeaders: OutgoingHttpHeaders; responseBody: string },
): JournalExchange {
  const { id, operation, ...rest } = known;
  const entry = { id, time: '', operation, query: {}, ...rest } as JournalEntry;
  const exchange: JournalExchange = { entry, method: facts.method, path: facts.target.path, rawQuery: [], requestHeaders: {}, responseHeaders: {}, responseBody: facts.responseBody };
  computedOnRead(entry, 'time', () => new Date(facts.receivedAt).toISOString());
  computedOnRead(exchange, 'rawQuery', () => splitQuery(facts.target.search).map(([name, value]) => [name, facts.policy.secret.includes(decodeComponent(name)) ? SERVICE_TOKEN_PLACEHOLDER : value]));
  computedOnRead(entry, 'query', () => {
    // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
    const query = Object.create(null) as Record<string, string[]>;
    for (const [name, value] of exchange.rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
    return query;
  });
  computedOnRead(exchange, 'requestHeaders', () => headerRecord(facts.requestHeaders, facts.policy.headers));
  computedOnRead(exchange, 'responseHeaders', () => headerRecord(facts.responseHeaders, facts.policy.headers));
  return exchange;
}

/** Keeps what is written to `res` (through `write` and `end`); the function gives it as text. */
function captureBody(res: Response): () => string {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as Response['end'];
  return () => Buffer.concat(chunks).toString('utf8');
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
    const findings = findingsOf(req, target);
    journalExchange(context, req, res, target, findings, captureBody(res));
    if (context.strictRequests && findings.length) {
      res.status(400).json(strictRequestsError(findings));
      return;
    }
    next();
  };
}
