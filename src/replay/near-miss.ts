import type { OperationName } from '../contract/core.js';
import {
  decodeComponent,
  ignoredBecause,
  valueScrubber,
  type NormalisationPolicy,
  type QueryMultimap,
  type RawPair,
  type Scrub,
} from '../normalise/index.js';
import type { RecordingIndex, IndexedRecording } from './recording-index.js';
import { textTable } from '../text-table.js';

/** A parameter's values: `null` when absent, the value when sent once, the values in order when repeated. */
type ParameterValues = string | string[] | null;

/** One parameter that differs between a recording and the request. */
export interface Difference {
  parameter: string;
  recorded: ParameterValues;
  requested: ParameterValues;
}

/** A recording close to the request, and how it differs. */
interface NearMiss {
  recording: string;
  differences: Difference[];
}

/**
 * Why a request got no recording, for tools (the JSON of a strict 404) and people
 * ({@link formatNearMissReport}).
 */
export interface NearMissReport {
  error: string;
  method: string;
  operation: OperationName;
  matchKey: string;
  /** The closest recordings of the same operation, closest first (at most 3). */
  nearMisses: NearMiss[];
  /** Parameters of the request left out of matching, and why. */
  ignored: Array<{ parameter: string; reason: 'volatile' | 'secret' | 'identity' }>;
}

function shown(values: string[] | undefined): ParameterValues {
  if (!values) return null;
  return values.length === 1 ? values[0]! : values;
}

/** The parameters whose values differ (in value or order), sorted by name. */
function differences(recorded: QueryMultimap, requested: QueryMultimap): Difference[] {
  const names = [...new Set([...Object.keys(recorded), ...Object.keys(requested)])].sort();
  const out: Difference[] = [];
  for (const parameter of names) {
    const a = recorded[parameter];
    const b = requested[parameter];
    if (a && b && a.length === b.length && a.every((v, i) => v === b[i])) continue;
    out.push({ parameter, recorded: shown(a), requested: shown(b) });
  }
  return out;
}

/**
 * The recordings of `operation` ordered by closeness to `requested` (fewest differing parameters
 * first; ties keep the recorded order), one per match key (its first recording), at most `limit`,
 * with their differences. Never one of another operation. Uses the index's nearest search, which
 * does not scan the recordings; differences are computed for the ones returned only.
 */
export function closest(
  index: RecordingIndex,
  operation: OperationName,
  requested: QueryMultimap,
  limit = Infinity,
): Array<{ entry: IndexedRecording; differences: Difference[] }> {
  return index
    .closest(operation, requested, limit)
    .map(({ entry }) => ({ entry, differences: differences(entry.query, requested) }));
}

/** `values` with `scrub` applied to each value. */
function scrubbed(values: ParameterValues, scrub: Scrub): ParameterValues {
  if (values === null) return null;
  return Array.isArray(values) ? values.map((v) => scrub(v)) : scrub(values);
}

/**
 * Builds the report of a request that no recording matches (`pairs`: its raw query pairs), redacted
 * as the journal redacts the request: the token (and `secretValues`) wherever it appears, also as the
 * value of another parameter (`ref=<token>`), in the match key and in every difference;
 * identifiers are kept, as in the journal. The stderr table and the 404 body are made from it.
 */
export function nearMissReport(
  index: RecordingIndex,
  request: { method: string; operation: OperationName; key: string; query: QueryMultimap; pairs: readonly RawPair[] },
  policy: NormalisationPolicy,
): NearMissReport {
  const named = request.pairs.map(([name, value]) => [decodeComponent(name), value] as const);
  const scrub = valueScrubber(named, policy, { keepIdentity: true });
  const candidates = closest(index, request.operation, request.query, 3);
  const ignored = [...new Set(named.map(([name]) => name))].flatMap((parameter) => {
    const reason = ignoredBecause(policy, parameter);
    return reason ? [{ parameter: scrub(parameter), reason }] : [];
  });
  return {
    error: candidates.length
      ? `No recording matches ${request.method} ${request.operation} exactly. The closest recordings and the parameters that differ are listed; record this request, or replay with --match nearest.`
      : `No recording of ${request.operation} at all. Record it (mockvideo record --only ${request.operation}), or replay with --fallback-scenario NAME.`,
    method: request.method,
    operation: request.operation,
    matchKey: scrub(request.key),
    nearMisses: candidates.map(({ entry, differences: found }) => ({
      recording: entry.name,
      differences: found.map((d) => ({
        parameter: scrub(d.parameter),
        recorded: scrubbed(d.recorded, scrub),
        requested: scrubbed(d.requested, scrub),
      })),
    })),
    ignored,
  };
}

function cell(values: ParameterValues): string {
  if (values === null) return '(absent)';
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(values);
}

/**
 * The report as a person reads it: for the closest recording, a side-by-side table (parameter |
 * recorded | requested), one row per differing parameter, then the ignored parameters; then the
 * other candidates in one line each.
 *
 * @example
 * // Request was not matched: GET localplay/diversion
 * // Closest recording: localplay-diversion/0a1b2c3d4e5f-000.json
 * // parameter       | recorded | requested
 * // is_from_gallery | "true"   | "false"
 * // _nonce          | (ignored: volatile)
 */
export function formatNearMissReport(report: NearMissReport): string {
  const lines = [`Request was not matched: ${report.method} ${report.operation}`, `  match key: ${report.matchKey}`];
  const [first, ...others] = report.nearMisses;
  if (!first) {
    lines.push(`  ${report.error}`);
    return lines.join('\n');
  }
  lines.push(`  Closest recording: ${first.recording}`);
  const rows = [
    ['parameter', 'recorded', 'requested'],
    ...first.differences.map((d) => [d.parameter, cell(d.recorded), cell(d.requested)]),
    ...report.ignored.map((i) => [i.parameter, `(ignored: ${i.reason})`, `(ignored: ${i.reason})`]),
  ];
  lines.push(...textTable(rows, ' | ').map((l) => `  ${l}`));
  for (const other of others)
    lines.push(
      `  Also close: ${other.recording} (${other.differences.map((d) => d.parameter).join(', ') || 'no differences'})`,
    );
  return lines.join('\n');
}
