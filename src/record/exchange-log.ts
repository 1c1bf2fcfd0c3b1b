/**
 * What the recorder reports of each exchange (the log line, the summary's counts).
 * @module
 */
import { errorText } from '../errors.js';
import { RedactionRefusedError, type Redaction } from '../normalise/index.js';

/** One exchange through the proxy, as the log line reports it. `durationMs` in milliseconds. */
export interface ProxyLogEntry {
  method: string;
  /** The operation (`meta/cp`, `meta/upgrade`). */
  operation: string;
  /** The status the client got (the upstream's; 504 when the upstream was too slow, 502 when it failed otherwise). */
  status: number;
  /** The recording written, or why none was. */
  recorded: string | undefined;
  note: string;
  durationMs: number;
  /** Echoes of secrets that the redaction replaced outside their own parameter or header (the sum of `redactions`). */
  leaks: number;
  /** Each replacement outside a secret's own place: which secret, where, in which encoding, how often. */
  redactions?: Redaction[];
  /**
   * Set when the client got the upstream's answer but its recording could not be stored (disk full,
   * folder removed, ...) or its redaction was refused (`EREDACTION`: a secret in the path or the match
   * key): the exchange is lost. `code` is the error code (`ENOSPC`, `ENOTDIR`, `EREDACTION`, ...).
   */
  lost?: { code: string; message: string };
}

/** What became of an exchange's recording, for the log. */
export type Outcome = Pick<ProxyLogEntry, 'recorded' | 'note' | 'redactions' | 'lost'>;

/** The outcome of an exchange whose recording was lost (`error`: why it could not be made or stored): the client still got the upstream's answer. */
export function lostOutcome(error: unknown): Outcome {
  const lost = { code: (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', message: errorText(error) };
  const note =
    error instanceof RedactionRefusedError ? 'NOT RECORDED: redaction refused' : `NOT RECORDED: ${lost.code}`;
  return { recorded: undefined, note, lost };
}
