import { OPERATION_NAMES } from '../contract/core.js';
import type { JournalEntry } from '../journal/index.js';
import { startUpVerdicts } from './start-ups.js';
import { RULE_COUNTS, type FailOn } from './fail-on.js';
import { DEFAULT_QUIET_GAP_SECONDS, deviceOf, verifyJournal, type RuleResult, type VerifyRule } from './verify.js';

/** A failed rule in a {@link VerdictCase}: which `--fail-on` value counts it, and what was seen. */
interface VerdictProblem {
  rule: VerifyRule;
  counts: FailOn;
  message: string;
}

/**
 * One check as a CI report shows it (a JUnit test case): a start-up, a recommendation view, one
 * operation's contract findings, or the journal's `start-up-seen`.
 */
export interface VerdictCase {
  /** `start-up 1`, `recommendation view 1`, `meta/cp keeps the contract`, `start-up-seen`: stable across runs, so a CI keeps its history. */
  name: string;
  /** What failed; empty when it passed. */
  problems: VerdictProblem[];
  /** The journal ids of its requests, in order of arrival. */
  ids: number[];
  /** Its first request's arrival (ISO 8601), or `null` when it has none. */
  start: string | null;
  /** From the first arrival to the last answer's end (an operation's: its answers' durations added), in **seconds**, to the millisecond. */
  seconds: number;
  /** Why it did not run (an operation this device never called), when it did not. */
  skipped?: string;
}

/** The cases of one device (a JUnit test suite), or of the journal as a whole (`device: null`). */
export interface VerdictSuite {
  /** `device 0123456789ab…` (the first 12 characters of `_sdevid`), or `journal`. */
  name: string;
  /** The device's `_sdevid` (`(no _sdevid)` for requests without one), or `null` for the journal's suite. */
  device: string | null;
  cases: VerdictCase[];
}

const shortDevice = (device: string) => (device.length > 12 ? `${device.slice(0, 12)}…` : device);

const problemsOf = (rules: readonly RuleResult[]): VerdictProblem[] =>
  rules.filter((r) => !r.ok).map((r) => ({ rule: r.rule, counts: RULE_COUNTS[r.rule], message: r.message }));

/** One operation's requests of one device, as a case: each request with findings is a problem. */
function operationCase(operation: string, entries: readonly JournalEntry[]): VerdictCase {
  const name = `${operation} keeps the contract`;
  if (!entries.length)
    return { name, problems: [], ids: [], start: null, seconds: 0, skipped: 'not called by this device' };
  const problems = entries
    .filter((e) => e.findings.length)
    .map((e): VerdictProblem => ({
      rule: 'requests-keep-the-contract',
      counts: 'findings',
      message: `#${e.id} at ${e.time}: ${e.findings.map((f) => `${f.parameter} ${f.rule}: ${f.message}`).join('; ')}`,
    }));
  return {
    name,
    problems,
    ids: entries.map((e) => e.id),
    start: entries[0]!.time,
    seconds: Math.round(entries.reduce((sum, e) => sum + e.durationMs, 0)) / 1000,
  };
}

/**
 * The journal as CI verdicts: a suite per device (in order of its first request) with a case per
 * start-up and recommendation view (verify's rules on it, but for the contract rule) and one per
 * operation (the contract findings of its requests; skipped when the device never called it),
 * after the journal's own suite with `start-up-seen`. What fails a job is chosen by `--fail-on`
 * (see {@link failedCases}).
 * @param entries the journal, oldest first.
 * @param quietGapSeconds the gap that separates two bursts, in seconds (as `verify --gap`).
 * @example verdictSuites(journal.exchanges().map((x) => x.entry)) // [{ name: 'journal', … }, { name: 'device 0123456789ab…', … }]
 * @see docs/ci.md
 */
export function verdictSuites(
  entries: readonly JournalEntry[],
  quietGapSeconds = DEFAULT_QUIET_GAP_SECONDS,
): VerdictSuite[] {
  const seen = verifyJournal(entries, quietGapSeconds).rules.filter((r) => r.rule === 'start-up-seen');
  const suites: VerdictSuite[] = [
    {
      name: 'journal',
      device: null,
      cases: [{ name: 'start-up-seen', problems: problemsOf(seen), ids: [], start: null, seconds: 0 }],
    },
  ];
  const byDevice = new Map<string, VerdictSuite>();
  const numbers = new Map<string, number>();
  for (const burst of startUpVerdicts(entries, quietGapSeconds)) {
    let suite = byDevice.get(burst.device);
    if (!suite) {
      suite = { name: `device ${shortDevice(burst.device)}`, device: burst.device, cases: [] };
      byDevice.set(burst.device, suite);
      suites.push(suite);
    }
    const kind = burst.startUp ? 'start-up' : 'recommendation view';
    const n = (numbers.get(`${burst.device} ${kind}`) ?? 0) + 1;
    numbers.set(`${burst.device} ${kind}`, n);
    suite.cases.push({
      name: `${kind} ${n}`,
      // The contract findings are the operations' cases.
      problems: problemsOf(burst.rules.filter((r) => r.rule !== 'requests-keep-the-contract')),
      ids: burst.ids,
      start: new Date(burst.start).toISOString(),
      seconds: Math.round(burst.end - burst.start) / 1000,
    });
  }
  for (const suite of byDevice.values()) {
    const own = entries.filter((e) => deviceOf(e) === suite.device);
    for (const operation of OPERATION_NAMES)
      suite.cases.push(
        operationCase(
          operation,
          own.filter((e) => e.operation === operation),
        ),
      );
  }
  return suites;
}

/** The cases that fail when `failOn` chooses what counts: those with a problem it counts. */
export function failedCases(suites: readonly VerdictSuite[], failOn: readonly FailOn[]): VerdictCase[] {
  return suites.flatMap((s) => s.cases.filter((c) => c.problems.some((p) => failOn.includes(p.counts))));
}
