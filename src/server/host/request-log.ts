import type { Plan } from '../../routes/index.js';

/** One served request, as the log line reports it. `durationMs` is in milliseconds. */
export interface RequestLogEntry {
  method: string;
  /** The operation name (`meta/cp`), or the path when it is not an operation. */
  operation: string;
  /** The scenario that answered, or `-`. */
  scenario: string;
  status: number;
  durationMs: number;
  /** How a replayed answer was matched (`exact`, `nearest`, `fallback`, `recorded`, `passthrough`). */
  match?: string;
  /** Contract findings of the request. */
  findings?: number;
  /** The fault the routes planned. */
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
 * findings and fault are the plan's. `durationMs`: from arrival to answer, in milliseconds.
 */
export function logEntry(
  method: string,
  what: string,
  status: number,
  plan: Plan,
  durationMs: number,
): RequestLogEntry {
  const entry: RequestLogEntry = { method, operation: what, scenario: plan.scenario ?? '-', status, durationMs };
  if (plan.match) entry.match = plan.match;
  if (plan.findings.length > 0) entry.findings = plan.findings.length;
  if (plan.fault) entry.fault = plan.fault;
  return entry;
}
