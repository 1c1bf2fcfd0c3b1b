import type { JournalEntry } from '../journal/index.js';
import { DEFAULT_QUIET_GAP_SECONDS, bursts, verifyJournal, type RuleResult } from './verify.js';

/**
 * One burst of one device's requests with the verify rules' verdict on it alone, for the
 * dashboard's timeline. Times are Unix time in **milliseconds**: `start` is the first arrival,
 * `end` the last answer's end (arrival plus `durationMs`).
 */
export interface StartUpVerdict {
  /** The device's `_sdevid`, or `(no _sdevid)`. */
  device: string;
  /** The journal ids of its requests, in order of arrival. */
  ids: number[];
  start: number;
  end: number;
  /** False for a burst of only `localplay/recomm` (the recommendation view opening after playback). */
  startUp: boolean;
  /** True when every rule that applies to it holds. */
  ok: boolean;
  /** The rules that apply (for a recommendation burst: only `requests-keep-the-contract`). */
  rules: RuleResult[];
  /**
   * Under `serve --fuzz`, for a start-up that breaks a rule: the case of the last generated answer
   * it got (`42:meta/plugin:3`), the suspect: an app that crashes on an answer stops calling, or
   * starts again.
   */
  suspect?: string;
}

/**
 * Splits the journal into bursts per device (see `bursts`: a new burst after a quiet gap of
 * `quietGapSeconds`) and checks each with `verifyJournal` on its own requests, oldest first.
 * A recommendation-only burst is judged on the contract rule only (the other rules are about
 * start-ups or the order across bursts, which the journal-wide report covers).
 */
export function startUpVerdicts(
  entries: readonly JournalEntry[],
  quietGapSeconds = DEFAULT_QUIET_GAP_SECONDS,
): StartUpVerdict[] {
  return bursts(entries, quietGapSeconds).map((burst) => {
    const report = verifyJournal(burst.entries, quietGapSeconds);
    const rules = burst.startUp ? report.rules : report.rules.filter((r) => r.rule === 'requests-keep-the-contract');
    const arrivals = burst.entries.map((e) => Date.parse(e.time));
    const ok = rules.every((r) => r.ok);
    const suspect = burst.startUp && !ok ? burst.entries.filter((e) => e.fuzz !== undefined).at(-1)?.fuzz : undefined;
    return {
      ...(suspect !== undefined ? { suspect } : {}),
      device: burst.device,
      ids: burst.entries.map((e) => e.id),
      start: Math.min(...arrivals),
      end: Math.max(...burst.entries.map((e, i) => arrivals[i]! + e.durationMs)),
      startUp: burst.startUp,
      ok,
      rules,
    };
  });
}
