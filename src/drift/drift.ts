/**
 * Drift: is mock data still shaped like the live service? Builds what to compare from a recording
 * folder or a scenario, asks the live service (twice, to learn noise) or reads a second recording
 * folder, and compares with {@link compareAnswers}. File access and flags stay in the CLI.
 * @module
 */
import { OPERATION_TABLE, type OperationName } from '../contract/core.js';
import { UNSTORED_REQUEST_HEADERS, type NamedRecording, type NormalisationPolicy } from '../normalise/index.js';
import type { RawPair } from '../normalise/query.js';
import { bodyFor, type PreparedResponse } from '../scenarios/compile.js';
import type { CompiledScenario } from '../scenarios/catalog.js';
import { compareAnswers, type DriftAnswer, type Comparison } from './compare.js';
import type { LiveClient } from './live-client.js';
import { clientQuery, liveQueryOf, queryString, type LiveQuery } from './live-query.js';

/** One request to compare: the operation, what it is (a recording file, a scenario's stub), the recorded answers and how to ask the live service. */
export interface DriftTarget {
  operation: OperationName;
  /** What the recorded side is, for the table heading: `meta-cp/0a1b2c3d4e5f-000.json` or `scenario gallery, stub 2`. */
  source: string;
  recorded: DriftAnswer[];
  /** The live request's path and how to build its query (`undefined` for an offline comparison). */
  live?: { path: string; query: (nowMs: number) => LiveQuery; headers: Record<string, string> };
}

/** The drift of one target: its differences and noise, or why the live service gave no answer. */
interface TargetReport extends Comparison {
  operation: OperationName;
  source: string;
  /** Set when the live service could not be asked (timeout, refused, ...): counts as a failure. */
  error?: string;
}

/** A whole drift run: `ok` when nothing but noise differs and every live request was answered. */
export interface DriftReport {
  ok: boolean;
  /** `live` against `--upstream`, or `offline` between two recording folders. */
  mode: 'live' | 'offline';
  targets: TargetReport[];
  /** What was left out and why (a recording that is not a GET, an operation recorded on one side only). */
  notes: string[];
}

/** The answer stored in a recording: its status and body text (`undefined` for a body kept as base64). */
function recordedAnswer({ recording }: NamedRecording): DriftAnswer {
  return { status: recording.response.status, body: recording.response.body };
}

/** Recordings grouped by operation and match key, in folder order (recorded order within a key). */
function byKey(recordings: readonly NamedRecording[]): Map<string, NamedRecording[]> {
  const groups = new Map<string, NamedRecording[]>();
  for (const named of recordings) {
    const key = `${named.recording.operation}\u0000${named.recording.matchKey}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(named);
  }
  return groups;
}

/** The source label of a group of recordings: the first file, and how many more share its key. */
const sourceOf = (group: readonly NamedRecording[]) =>
  `${group[0]!.name}${group.length > 1 ? ` (+${group.length - 1} more of this request)` : ''}`;

/** Request headers never replayed to the live service (lower case): credentials, forwarding, per-hop and encoding ones. */
const NOT_REPLAYED = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'accept-encoding',
  ...UNSTORED_REQUEST_HEADERS,
]);

/**
 * Request headers replayed to the live service: the recorded ones by lower-case name, except
 * redacted ones, credentials (`Authorization`, `Cookie`, ...), forwarding headers (`Forwarded`,
 * `X-Forwarded-*`, `Via`, ...) and per-hop and encoding ones, whatever their case.
 */
function replayedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value.includes('<REDACTED>') || NOT_REPLAYED.has(lower) || lower.startsWith('x-forwarded-')) continue;
    out[lower] = value;
  }
  return out;
}

/**
 * One target per distinct recorded request (operation and match key) of a recording folder: its
 * recorded answers (several when the request was recorded several times) and its request to replay
 * with `values` (see {@link liveQueryOf}). Recordings that are not GET requests are left out, with a note.
 */
export function targetsFromRecordings(
  recordings: readonly NamedRecording[],
  values: ReadonlyMap<string, string>,
  policy: NormalisationPolicy,
): { targets: DriftTarget[]; notes: string[] } {
  const notes: string[] = [];
  const targets: DriftTarget[] = [];
  for (const group of byKey(recordings).values()) {
    const first = group[0]!.recording;
    if (first.request.method !== 'GET') {
      notes.push(
        `${group[0]!.name}: a ${first.request.method} request; drift sends GET requests only, so it was left out`,
      );
      continue;
    }
    targets.push({
      operation: first.operation,
      source: sourceOf(group),
      recorded: group.map(recordedAnswer),
      live: {
        path: first.request.path,
        query: (nowMs) => liveQueryOf(first.request.query, values, policy, nowMs),
        headers: replayedHeaders(first.request.headers),
      },
    });
  }
  return { targets, notes };
}

/** True when a prepared answer is the stub's data as such, not a fault that breaks or replaces it. */
const isPlainAnswer = (response: PreparedResponse) => !response.fault || response.fault.kind === 'delay';

/**
 * One target per stub of each operation of a compiled scenario: its answers (a sequence's every
 * answer, faults that break an answer left out), with `{origin}` as `origin`, and the player client's
 * realistic query (see {@link clientQuery}) with the stub's `when.query` conditions. A stub without
 * conditions after stubs with some gets the opposite of their boolean values (`is_from_gallery=false`
 * after a `true` stub), so the live service is asked what that stub stands for.
 */
export function targetsFromScenario(
  scenario: CompiledScenario,
  values: ReadonlyMap<string, string>,
  policy: NormalisationPolicy,
  origin: string,
): DriftTarget[] {
  const targets: DriftTarget[] = [];
  for (const [operation, stubs] of Object.entries(scenario.operations) as Array<
    [OperationName, CompiledScenario['operations'][OperationName]]
  >) {
    stubs.forEach((stub, index) => {
      const answers = stub.responses.filter(isPlainAnswer).map((r) => ({ status: r.status, body: bodyFor(r, origin) }));
      if (!answers.length) return;
      const conditions: Record<string, string> = Object.fromEntries(stub.query);
      for (const earlier of stubs.slice(0, index)) {
        for (const [name, value] of earlier.query)
          if (!(name in conditions) && (value === 'true' || value === 'false'))
            conditions[name] = value === 'true' ? 'false' : 'true';
      }
      const when = Object.entries(Object.fromEntries(stub.query))
        .map(([n, v]) => `${n}=${v}`)
        .join('&');
      targets.push({
        operation,
        source: `scenario ${scenario.name}${stubs.length > 1 ? `, stub ${index + 1}${when ? ` (${when})` : ''}` : ''}`,
        recorded: answers,
        live: {
          path: OPERATION_TABLE[operation].path,
          query: (nowMs) => clientQuery(operation, values, policy, conditions, nowMs),
          headers: {},
        },
      });
    });
  }
  return targets;
}

/**
 * The parameter names some target's live query lacks a real value for (a `<SERVICE_TOKEN>` or
 * `<REDACTED>` with nothing to put back), checked before any request is sent.
 */
export function missingValues(targets: readonly DriftTarget[]): string[] {
  return [...new Set(targets.flatMap((t) => t.live?.query(Date.now()).missing ?? []))].sort();
}

/**
 * Asks the live service for each target twice (fresh `_nonce` and `_ts` each time) and compares its
 * answers with the recorded ones: what differs between the two live answers is noise. `scrub`
 * rewrites each live body before it is compared (drift's callers replace every form of the real
 * token and identifiers), so no part of an echoed secret reaches the report, however it is cut.
 */
export async function driftLive(
  targets: readonly DriftTarget[],
  client: LiveClient,
  notes: string[] = [],
  scrub: (text: string) => string = (text) => text,
): Promise<DriftReport> {
  const reports = await Promise.all(
    targets.map(async (target): Promise<TargetReport> => {
      const base = { operation: target.operation, source: target.source };
      const live = target.live!;
      const answers: DriftAnswer[] = [];
      for (let i = 0; i < 2; i++) {
        const pairs: RawPair[] = live.query(Date.now()).pairs;
        const answer = await client.get(`${live.path}?${queryString(pairs)}`, live.headers);
        if (!answer.ok) return { ...base, differences: [], noise: [], error: answer.error };
        answers.push({ status: answer.status, body: answer.body === undefined ? undefined : scrub(answer.body) });
      }
      return { ...base, ...compareAnswers(target.operation, target.recorded, answers) };
    }),
  );
  return { ok: reports.every((r) => !r.error && r.differences.length === 0), mode: 'live', targets: reports, notes };
}

/**
 * Compares two recording folders offline (`before` yesterday's, `after` today's): each request
 * recorded in both (same operation and match key) is compared; an operation whose requests differ
 * between the folders is compared as a whole (all its answers on each side). What is recorded on one
 * side only is a note, not drift.
 */
export function driftOffline(before: readonly NamedRecording[], after: readonly NamedRecording[]): DriftReport {
  const a = byKey(before);
  const b = byKey(after);
  const targets: TargetReport[] = [];
  const unpaired = new Map<OperationName, { before: NamedRecording[]; after: NamedRecording[] }>();
  const side = (operation: OperationName) =>
    unpaired.get(operation) ?? unpaired.set(operation, { before: [], after: [] }).get(operation)!;
  for (const [key, group] of a) {
    const other = b.get(key);
    if (other)
      targets.push({
        operation: group[0]!.recording.operation,
        source: `${sourceOf(group)} ↔ ${sourceOf(other)}`,
        ...compareAnswers(group[0]!.recording.operation, group.map(recordedAnswer), other.map(recordedAnswer)),
      });
    else side(group[0]!.recording.operation).before.push(...group);
  }
  for (const [key, group] of b) if (!a.has(key)) side(group[0]!.recording.operation).after.push(...group);
  const notes: string[] = [];
  for (const [operation, { before: x, after: y }] of unpaired) {
    if (x.length && y.length)
      targets.push({
        operation,
        source: `every ${operation} recording (${x.length} ↔ ${y.length}; no request in common)`,
        ...compareAnswers(operation, x.map(recordedAnswer), y.map(recordedAnswer)),
      });
    else
      notes.push(
        `${operation}: ${x.length ? `${x.length} recording(s) in the first folder only` : `${y.length} recording(s) in the second folder only`}; not compared`,
      );
  }
  targets.sort((x, y) => x.operation.localeCompare(y.operation) || x.source.localeCompare(y.source));
  return { ok: targets.every((t) => t.differences.length === 0), mode: 'offline', targets, notes };
}
