import { OPERATION_NAMES } from '../contract/core.js';
import type { JournalEntry } from '../journal/index.js';
import { FAIL_ON, RULE_COUNTS, type FailOn } from './fail-on.js';

/** One rule's outcome. `message` says what was seen, naming devices and times on a failure. */
export interface RuleResult {
  rule: VerifyRule;
  ok: boolean;
  message: string;
}

/** The verify report: `ok` when every rule holds. */
export interface VerifyReport {
  ok: boolean;
  rules: RuleResult[];
}

/**
 * The call rules checked, from the seed's "Operations" rules:
 * - `start-up-seen`: the journal holds at least one start-up;
 * - `start-up-calls-each-operation-once`: in every start-up each of the six operations is called
 *   once, `meta/setting` once or twice (rule 1);
 * - `diversion-carries-is_from_gallery`: every diversion call carries `is_from_gallery` as
 *   `true` or `false` (the context of the playback, "What the service does" item 2);
 * - `recommendations-after-start-up`: a later burst of only `localplay/recomm` (the recommendation
 *   view opening after playback, rule 2) follows a start-up of the same device;
 * - `requests-keep-the-contract`: no request has contract findings;
 * - `requests-answered`: a scenario or a recording answered every request (not so: a path prefix
 *   naming no scenario, a replay's near miss), a fault aside: the app was tested against the answers
 *   meant for it. Not a rule of the seed: mockvideo's own, that the test ran as set up.
 */
export type VerifyRule =
  | 'start-up-seen'
  | 'start-up-calls-each-operation-once'
  | 'diversion-carries-is_from_gallery'
  | 'recommendations-after-start-up'
  | 'requests-keep-the-contract'
  | 'requests-answered';

/** True when a rule that `failOn` counts fails in `report` (with every value: when `report.ok` is false). */
function reportFails(report: VerifyReport, failOn: readonly FailOn[] = FAIL_ON): boolean {
  return report.rules.some((r) => !r.ok && failOn.includes(RULE_COUNTS[r.rule]));
}

/**
 * True when the request got the 404 of "nothing here to answer it": a path prefix naming no
 * scenario, a replay's near miss. The journal names the scenario, the match or the fault of every
 * other answer; a refusal of a request that breaks the contract (`--strict-requests`' 400) is its
 * findings' matter, not this.
 */
function unanswered(entry: JournalEntry): boolean {
  return (
    entry.status === 404 &&
    entry.scenario === null &&
    entry.match === null &&
    entry.fault === null &&
    entry.recording === undefined
  );
}

/** Default quiet gap that separates two bursts of one device, in **seconds**. */
export const DEFAULT_QUIET_GAP_SECONDS = 5;

/** One device's requests with no gap of `quietGapSeconds` or more between them. */
export interface Burst {
  device: string;
  entries: JournalEntry[];
  /** True when it calls any operation other than `localplay/recomm`: a playback start-up. */
  startUp: boolean;
}

/** The device of a journal entry as verify counts it: its `_sdevid`, or `(no _sdevid)`. */
export const deviceOf = (entry: JournalEntry): string => entry.query._sdevid?.[0] ?? '(no _sdevid)';

/**
 * Groups requests into bursts: per device (`_sdevid`; requests without one form the device
 * `(no _sdevid)`), a new burst starts after a quiet gap of at least `quietGapSeconds`.
 */
export function bursts(entries: readonly JournalEntry[], quietGapSeconds = DEFAULT_QUIET_GAP_SECONDS): Burst[] {
  const byDevice = new Map<string, JournalEntry[]>();
  for (const entry of entries) {
    const device = deviceOf(entry);
    (byDevice.get(device) ?? byDevice.set(device, []).get(device)!).push(entry);
  }
  const result: Burst[] = [];
  for (const [device, list] of byDevice) {
    let last = -Infinity;
    for (const entry of [...list].sort((a, b) => Date.parse(a.time) - Date.parse(b.time))) {
      const at = Date.parse(entry.time);
      if (at - last >= quietGapSeconds * 1000) result.push({ device, entries: [], startUp: false });
      result.at(-1)!.entries.push(entry);
      result.at(-1)!.startUp ||= entry.operation !== 'localplay/recomm';
      last = at;
    }
  }
  return result.sort((a, b) => Date.parse(a.entries[0]!.time) - Date.parse(b.entries[0]!.time));
}

const shortDevice = (device: string) => (device.length > 12 ? `${device.slice(0, 12)}…` : device);

/**
 * Checks the journal against the seed's call rules and returns a report (never throws).
 * @param entries the journal, oldest first.
 * @see docs/contract.md#operations (when the client calls them).
 */
export function verifyJournal(
  entries: readonly JournalEntry[],
  quietGapSeconds = DEFAULT_QUIET_GAP_SECONDS,
): VerifyReport {
  const operationEntries = entries.filter((e) => (OPERATION_NAMES as readonly string[]).includes(e.operation));
  const groups = bursts(operationEntries, quietGapSeconds);
  const startUps = groups.filter((b) => b.startUp);
  const rules: RuleResult[] = [];
  /** Adds a rule's outcome: failed when there is a `failure` message. */
  const check = (rule: VerifyRule, failure: string | false, success: string) =>
    rules.push({ rule, ok: !failure, message: failure || success });

  check(
    'start-up-seen',
    !startUps.length && 'no start-up in the journal: start playback of a local video in the app, then verify',
    `${startUps.length} start-up${startUps.length === 1 ? '' : 's'} from ${new Set(startUps.map((b) => b.device)).size} device(s)`,
  );

  const wrong: string[] = [];
  for (const burst of startUps) {
    const counts = new Map(OPERATION_NAMES.map((op) => [op as string, 0]));
    for (const e of burst.entries) counts.set(e.operation, (counts.get(e.operation) ?? 0) + 1);
    const problems = [...counts]
      .filter(([op, n]) => (op === 'meta/setting' ? n < 1 || n > 2 : n !== 1))
      .map(([op, n]) => `${op} ×${n}`);
    if (problems.length)
      wrong.push(`device ${shortDevice(burst.device)} at ${burst.entries[0]!.time}: ${problems.join(', ')}`);
  }
  check(
    'start-up-calls-each-operation-once',
    wrong.length > 0 && `each operation once (meta/setting at most twice) per start-up; ${wrong.join('; ')}`,
    'every start-up called each operation once (meta/setting at most twice)',
  );

  const diversions = operationEntries.filter((e) => e.operation === 'localplay/diversion');
  const missing = diversions.filter((e) => !['true', 'false'].includes(e.query.is_from_gallery?.[0] ?? ''));
  check(
    'diversion-carries-is_from_gallery',
    missing.length > 0 &&
      `${missing.length} of ${diversions.length} diversion calls lack is_from_gallery=true|false (request ids ${missing.map((e) => e.id).join(', ')})`,
    `${diversions.length} diversion call(s), each with is_from_gallery`,
  );

  const orphans = groups.filter(
    (b, i) => !b.startUp && !groups.slice(0, i).some((p) => p.startUp && p.device === b.device),
  );
  check(
    'recommendations-after-start-up',
    orphans.length > 0 &&
      `localplay/recomm fetched without a start-up before it: ${orphans.map((b) => `device ${shortDevice(b.device)} at ${b.entries[0]!.time}`).join('; ')}`,
    'every recommendation view followed a start-up of its device',
  );

  const [first, ...others] = operationEntries.filter((e) => e.findings.length);
  check(
    'requests-keep-the-contract',
    first !== undefined &&
      `${others.length + 1} request(s) break the contract, e.g. #${first.id} ${first.operation}: ${first.findings
        .slice(0, 3)
        .map((f) => f.message)
        .join('; ')}${first.findings.length > 3 ? ` (and ${first.findings.length - 3} more)` : ''}`,
    'no contract findings',
  );

  const missed = operationEntries.filter(unanswered);
  check(
    'requests-answered',
    missed.length > 0 &&
      `${missed.length} request(s) no scenario or recording answered: ${missed
        .slice(0, 5)
        .map((e) => `#${e.id} ${e.operation} ${e.status}`)
        .join(
          ', ',
        )}${missed.length > 5 ? ', …' : ''} (a /scenarios/NAME prefix that names no scenario, or a near miss of replay: see the journal)`,
    'a scenario or a recording answered every request',
  );
  return { ok: rules.every((r) => r.ok), rules };
}

/**
 * Formats a report for a terminal: one `✓`/`✗` line per rule (a failed rule that `failOn` does not
 * count says so) and a last PASS/FAIL line, FAIL when a counted rule fails.
 */
export function formatReport(report: VerifyReport, failOn: readonly FailOn[] = FAIL_ON): string {
  const lines = report.rules.map(
    (r) =>
      `${r.ok ? '✓' : '✗'} ${r.rule}: ${r.message}${!r.ok && !failOn.includes(RULE_COUNTS[r.rule]) ? ` (not counted: --fail-on ${failOn.join(',')})` : ''}`,
  );
  return `${lines.join('\n')}\n${reportFails(report, failOn) ? 'FAIL' : 'PASS'}\n`;
}
