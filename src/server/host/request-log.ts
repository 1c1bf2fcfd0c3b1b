import { MATCH_HEADER } from '../../replay/headers.js';
import { ANSWERED_BY_HEADER, FAULT_HEADER, FINDINGS_HEADER } from '../../routes/index.js';

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
 * The log entry of one request once it is answered (`status` 0: no answer was sent: the client went
 * away, a `reset` or `hang` fault). `what` is the operation name or the path; the scenario, match,
 * findings and fault come from the sent `x-mockvideo-*` headers. `durationMs`: from arrival to
 * answer, in milliseconds.
 */
export function logEntry(
  method: string,
  what: string,
  status: number,
  headers: Readonly<Record<string, unknown>>,
  durationMs: number,
): RequestLogEntry {
  const findings = Number(headers[FINDINGS_HEADER]);
  const entry: RequestLogEntry = {
    method,
    operation: what,
    scenario: String(headers[ANSWERED_BY_HEADER] ?? '-'),
    status,
    durationMs,
  };
  if (headers[MATCH_HEADER]) entry.match = String(headers[MATCH_HEADER]);
  if (findings > 0) entry.findings = findings;
  if (headers[FAULT_HEADER]) entry.fault = String(headers[FAULT_HEADER]);
  else if (status === 0) entry.fault = 'reset';
  return entry;
}
