import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationOfPath } from '../contract/core.js';
import { FAULT_HEADER } from '../handlers/scenario-answer.js';
import { ANSWERED_BY_HEADER } from '../handlers/select-scenario.js';
import { MATCH_HEADER } from '../replay/headers.js';
import { FINDINGS_HEADER } from './journal-middleware.js';

/** One served request, as the log line reports it. `durationMs` is in milliseconds. */
export interface RequestLogEntry {
  method: string;
  /** The operation name (`meta/cp`), or the path when it is not an operation. */
  operation: string;
  /** The scenario that answered, or `-`. */
  scenario: string;
  status: number;
  durationMs: number;
  /** How a replayed answer was matched (`exact`, `nearest`, `fallback`, `recorded`), from the `x-mockvideo-match` header. */
  match?: string;
  /** Contract findings of the request, from the `x-mockvideo-findings` header. */
  findings?: number;
  /** The fault applied, from the `x-mockvideo-fault` header (`reset` when no answer was sent). */
  fault?: string;
}

/** Formats an entry as one concise line: `GET meta/cp  default  200  0.8 ms`. */
export function formatLogLine(entry: RequestLogEntry): string {
  const extras = `${entry.match ? `  match=${entry.match}` : ''}${entry.fault ? `  fault=${entry.fault}` : ''}${entry.findings ? `  findings=${entry.findings}` : ''}`;
  return `${entry.method} ${entry.operation}  ${entry.scenario}  ${entry.status}${extras}  ${entry.durationMs.toFixed(1)} ms`;
}

/**
 * Reports one request to `write` once it is answered (or the client went away). Reads the scenario,
 * match, findings and fault from the `x-mockvideo-*` response headers.
 */
export function logRequest(write: (entry: RequestLogEntry) => void, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): void {
  const start = process.hrtime.bigint();
  const report = () => {
    const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
    write({
      method: req.method ?? 'GET',
      operation: operationOfPath(path) ?? path,
      scenario: String(res.getHeader(ANSWERED_BY_HEADER) ?? '-'),
      status: res.headersSent ? res.statusCode : 0,
      durationMs: Number(process.hrtime.bigint() - start) / 1e6,
      ...(res.getHeader(MATCH_HEADER) ? { match: String(res.getHeader(MATCH_HEADER)) } : {}),
      ...(Number(res.getHeader(FINDINGS_HEADER)) > 0 ? { findings: Number(res.getHeader(FINDINGS_HEADER)) } : {}),
      ...(res.getHeader(FAULT_HEADER) ? { fault: String(res.getHeader(FAULT_HEADER)) } : res.headersSent ? {} : { fault: 'reset' }),
    });
  };
  // A response emits 'close' once in every case: after 'finish' when it was sent, or when the client went away.
  res.on('close', report);
}

/** Node/Express middleware that reports every request with {@link logRequest}. */
export function requestLog(write: (entry: RequestLogEntry) => void) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    logRequest(write, req, res);
    next();
  };
}
