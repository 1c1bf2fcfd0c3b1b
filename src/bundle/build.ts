/**
 * Building a start-up's bundle from the journal: each exchange redacted once more by the one
 * redaction of recordings (`redactExchange`), now with identifiers too, and verify's verdict made
 * again from the redacted requests, so that nothing in the file names the device. Any runtime.
 * @module
 */
import type { ClockView } from '../clock/clock.js';
import type { OperationName } from '../contract/core.js';
import type { FaultKind } from '../faults/fault.js';
import { answerBytes, type JournalEntry, type JournalExchange } from '../journal/index.js';
import {
  decodeComponent,
  redactExchange,
  valueScrubber,
  fileJson,
  type NormalisationPolicy,
} from '../normalise/index.js';
import { startUpVerdicts, type StartUpVerdict } from '../verify/start-ups.js';
import { PACKAGE_VERSION } from '../version.generated.js';
import {
  BUNDLE_FORMAT,
  type Bundle,
  type BundleExchange,
  type BundleFuzz,
  type BundleScenario,
  type BundleVerdict,
} from './format.js';

/** What {@link buildBundle} makes a bundle of. */
export interface BundleInput {
  /** The start-up's exchanges as the journal keeps them (any order: they are put in order of arrival). */
  exchanges: readonly JournalExchange[];
  /** Verify's verdict on the start-up as the server gives it (`GET /__mockvideo/start-ups`), with its `id`. */
  verdict: StartUpVerdict;
  /** The quiet gap the verdict was made with, in **seconds**. */
  quietGapSeconds: number;
  /** The server's normalisation policy: its secret, identity and header lists (identifiers are redacted whatever `keepIdentity` says). */
  policy: NormalisationPolicy;
  /** A scenario's description and `extends` chain (nearest first), or `undefined` for a name the server does not know. */
  scenario: (name: string) => Omit<BundleScenario, 'name'> | undefined;
  clock: ClockView;
  /** The run of `serve --fuzz` (its `FuzzReport`), when the server fuzzes. */
  fuzz?: Omit<BundleFuzz, 'cases'> | undefined;
  server: Bundle['server'];
  /** When the bundle is written; default now. */
  now?: Date;
}

/** The parameters whose values the bundle must never hold: the policy's secret and identity ones. */
function redactingPolicy(policy: NormalisationPolicy): NormalisationPolicy {
  return { ...policy, keepIdentity: false };
}

/**
 * One journal exchange as a bundle's: request and answer redacted by `redactExchange` under
 * `policy` (the journal's view kept the identifiers for filtering; here they go too), the findings'
 * messages scrubbed of the identifiers they quote, the answer's whole body from `answerBody`.
 */
function bundleExchange(exchange: JournalExchange, policy: NormalisationPolicy, firstArrival: number): BundleExchange {
  const { entry } = exchange;
  const answered = entry.status > 0;
  const parts = redactExchange(
    {
      method: exchange.method,
      path: exchange.path,
      query: exchange.rawQuery,
      requestHeaders: exchange.requestHeaders,
      status: entry.status,
      responseHeaders: exchange.responseHeaders,
      body: answered ? answerBytes(exchange.answerBody) : new Uint8Array(),
      recordedAt: entry.time,
    },
    policy,
  );
  const scrub = valueScrubber(
    exchange.rawQuery.map(([name, value]) => [decodeComponent(name), value] as const),
    policy,
  );
  const made: BundleExchange = {
    id: entry.id,
    time: entry.time,
    atMs: Date.parse(entry.time) - firstArrival,
    durationMs: entry.durationMs,
    operation: entry.operation as OperationName,
    request: { method: exchange.method, path: parts.path, query: parts.query, headers: parts.requestHeaders },
    answer: answered ? { status: entry.status, headers: parts.responseHeaders, ...parts.body } : null,
    fault: entry.fault as FaultKind | null,
    delayMs: entry.delayMs ?? 0,
    scenario: entry.scenario,
    match: entry.match,
    findings: entry.findings.map((f) => ({ ...f, message: scrub(f.message) })),
  };
  if (entry.recording !== undefined) made.recording = entry.recording;
  if (entry.step !== undefined) made.step = entry.step;
  if (entry.fuzz !== undefined) made.fuzz = entry.fuzz;
  return made;
}

/** A bundle's exchange as a journal entry, for verify: its redacted query decoded. */
function entryOf(exchange: BundleExchange): JournalEntry {
  const query = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of exchange.request.query)
    (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
  return {
    id: exchange.id,
    time: exchange.time,
    operation: exchange.operation,
    query,
    scenario: exchange.scenario,
    status: exchange.answer?.status ?? 0,
    durationMs: exchange.durationMs,
    findings: exchange.findings,
    match: exchange.match,
    fault: exchange.fault,
    ...(exchange.recording !== undefined ? { recording: exchange.recording } : {}),
    ...(exchange.fuzz !== undefined ? { fuzz: exchange.fuzz } : {}),
  };
}

/**
 * Verify's verdict made again from the redacted requests (so its messages name `<REDACTED>`, never
 * the device): the same rules and outcome as the server's, which judged the same requests. A burst
 * of only `localplay/recomm` is judged against the device's earlier bursts, which the bundle does
 * not hold: its `recommendations-after-start-up` rule is the server's (whose messages name no device).
 */
function bundleVerdict(verdict: StartUpVerdict, exchanges: readonly BundleExchange[], gap: number): BundleVerdict {
  const [again] = startUpVerdicts(exchanges.map(entryOf), gap);
  const server = verdict.rules.find((r) => r.rule === 'recommendations-after-start-up');
  const rules = (again?.rules ?? verdict.rules).map((r) =>
    !verdict.startUp && server && r.rule === server.rule ? server : r,
  );
  const suspect = again?.suspect ?? verdict.suspect;
  return {
    id: verdict.id,
    device: again?.device ?? '(no _sdevid)',
    ids: verdict.ids,
    start: new Date(verdict.start).toISOString(),
    end: new Date(verdict.end).toISOString(),
    startUp: verdict.startUp,
    ok: rules.every((r) => r.ok),
    rules,
    ...(suspect !== undefined ? { suspect } : {}),
  };
}

/**
 * The bundle of one start-up (see docs/bundles.md): its exchanges in order of arrival, each request
 * redacted as recordings are (the token, identifiers, credential headers and secret cookies, and
 * every echo of them, by the one scrubber of `src/normalise/`), each answer with its exact bytes
 * (an echo of a secret in them replaced too); the faults, waits, scenarios (with their `extends`
 * chains), fuzz cases and verify's verdict; the clock and this version of mockvideo. Pure; never throws.
 *
 * @example buildBundle({ exchanges, verdict, quietGapSeconds: 5, policy, scenario, clock, server }).format // 'mockvideo-bundle/1'
 */
export function buildBundle(input: BundleInput): Bundle {
  const policy = redactingPolicy(input.policy);
  const ordered = [...input.exchanges].sort(
    (a, b) => Date.parse(a.entry.time) - Date.parse(b.entry.time) || a.entry.id - b.entry.id,
  );
  const first = ordered.length ? Date.parse(ordered[0]!.entry.time) : 0;
  const exchanges = ordered.map((x) => bundleExchange(x, policy, first));
  const names = [
    ...new Set([...exchanges.flatMap((x) => (x.scenario === null ? [] : [x.scenario])), input.server.activeScenario]),
  ];
  const scenarios = names.flatMap((name): BundleScenario[] => {
    const known = input.scenario(name);
    return known ? [{ name, ...known }] : [];
  });
  const fuzz = input.fuzz;
  return {
    format: BUNDLE_FORMAT,
    mockvideo: PACKAGE_VERSION,
    createdAt: (input.now ?? new Date()).toISOString(),
    server: input.server,
    verdict: bundleVerdict(input.verdict, exchanges, input.quietGapSeconds),
    scenarios,
    clock: input.clock,
    fuzz: fuzz
      ? {
          seed: fuzz.seed,
          beyondObserved: fuzz.beyondObserved,
          integers: fuzz.integers,
          perDevice: fuzz.perDevice,
          fixedCase: fuzz.fixedCase,
          cases: exchanges.flatMap((x) => (x.fuzz === undefined ? [] : [x.fuzz])),
        }
      : null,
    exchanges,
  };
}

/** A bundle's file text, as the admin API sends it: its fields in order, 2-space indent, each query pair on one line. */
export const bundleText = (bundle: Bundle): string => fileJson(bundle, false);
