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

/**
 * Gathers log lines (UTF-8, each ended by `\n`) in one buffer made once, and hands them to `write`
 * as one Buffer (a copy) once they reach `flushBytes`, or `flushMs` milliseconds after the first
 * line of a batch, or on {@link LineGatherer.flush}. A line makes no object that outlives it: where
 * each line was a Buffer waiting in the stream's batch, those Buffers outlived V8's scavenges under
 * load and grew its young generation (serve's RSS +10 MB). A line longer than the buffer goes alone.
 */
export class LineGatherer {
  readonly #write: (chunk: Buffer) => void;
  readonly #flushMs: number;
  readonly #chunk: Buffer;
  readonly #flushBytes: number;
  #used = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** @param flushBytes at least this many bytes go out together (the buffer holds 4 KiB more, for the line that passes it). */
  constructor(write: (chunk: Buffer) => void, flushBytes = 12_288, flushMs = 50) {
    this.#write = write;
    this.#flushBytes = flushBytes;
    this.#flushMs = flushMs;
    this.#chunk = Buffer.allocUnsafeSlow(flushBytes + 4096);
  }

  /** Adds one line (without its `\n`). */
  line(text: string): void {
    const chunk = this.#chunk;
    let room = chunk.length - this.#used - 1;
    if (text.length * 3 > room && Buffer.byteLength(text) > room) {
      this.flush();
      room = chunk.length - 1;
      if (Buffer.byteLength(text) > room) return this.#write(Buffer.from(`${text}\n`));
    }
    this.#used += chunk.write(text, this.#used, room, 'utf8');
    chunk[this.#used++] = 10;
    if (this.#used >= this.#flushBytes) this.flush();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#flushMs);
      this.#timer.unref();
    }
  }

  /** Hands what is gathered to `write` now. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0) return;
    const out = Buffer.from(this.#chunk.subarray(0, this.#used));
    this.#used = 0;
    this.#write(out);
  }
}
