import type { JournalEntry } from '../journal/index.js';
import { DEFAULT_QUIET_GAP_SECONDS, bursts, verifyJournal, type Burst, type RuleResult } from './verify.js';

/**
 * One burst of one device's requests with the verify rules' verdict on it alone, for the
 * dashboard's timeline. Times are Unix time in **milliseconds**: `start` is the first arrival,
 * `end` the last answer's end (arrival plus `durationMs`).
 */
export interface StartUpVerdict {
  /**
   * Names it while the journal holds its first request: that request's journal id (the same
   * whatever else arrives later). `GET /__mockvideo/start-ups/ID/bundle` gives its bundle.
   */
  id: number;
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
  /**
   * The rules that apply: to a recommendation burst only `recommendations-after-start-up` (judged
   * against the device's earlier bursts), `requests-keep-the-contract` and `requests-answered`.
   */
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
 * A recommendation-only burst is judged on whether a start-up of its device came before it, the
 * contract and the answers (the other rules are about start-ups).
 */
export function startUpVerdicts(
  entries: readonly JournalEntry[],
  quietGapSeconds = DEFAULT_QUIET_GAP_SECONDS,
): StartUpVerdict[] {
  const all = bursts(entries, quietGapSeconds);
  return all.map((burst, index) => {
    const report = verifyJournal(burst.entries, quietGapSeconds);
    const rules = burst.startUp ? report.rules : recommendationRules(report.rules, all.slice(0, index), burst.device);
    const arrivals = burst.entries.map((e) => Date.parse(e.time));
    const ok = rules.every((r) => r.ok);
    const suspect = burst.startUp && !ok ? burst.entries.filter((e) => e.fuzz !== undefined).at(-1)?.fuzz : undefined;
    return {
      ...(suspect !== undefined ? { suspect } : {}),
      id: burst.entries[0]!.id,
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

/** The rules of a recommendation burst of `device`, the recommendation rule judged against the bursts `before` it. */
function recommendationRules(rules: readonly RuleResult[], before: readonly Burst[], device: string): RuleResult[] {
  const after = before.some((b) => b.startUp && b.device === device);
  return rules.flatMap((r): RuleResult[] => {
    if (r.rule === 'recommendations-after-start-up')
      return [
        after
          ? { ...r, ok: true, message: 'a start-up of this device came before it' }
          : { ...r, ok: false, message: 'localplay/recomm fetched without a start-up of this device before it' },
      ];
    return r.rule === 'requests-keep-the-contract' || r.rule === 'requests-answered' ? [r] : [];
  });
}
