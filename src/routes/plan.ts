/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import type { Clock } from '../clock/clock.js';
import type { FaultBoard } from '../faults/board.js';
import type { Fault } from '../faults/fault.js';
import { queryFindings, type Finding } from '../findings/index.js';
import { MATCH_HEADER } from '../replay/headers.js';
import type { NearMissReport } from '../replay/near-miss.js';
import type { Replayer, ReplayOutcome } from '../replay/replayer.js';
import type { Downloads, DownloadRoute } from './downloads.js';
import type { FuzzAnswers } from './fuzz.js';
import {
  errorBody,
  methodNotAllowed,
  noHostHeader,
  refusedForwarding,
  strictRequestsError,
  targetTooLong,
  unknownOperation,
} from './errors.js';
import { routeOf, UPGRADE_OPERATION, type Route } from './path.js';
import { RecordingAnswers, missAnswer } from './replay.js';
import {
  MAX_URL_LENGTH,
  bodyText,
  hasBody,
  headerValue,
  type Answer,
  type PassMarks,
  type Plan,
  type RouteRequest,
} from './request.js';
import { planFaults, planScenarioAnswer, type PlannedAnswer, type ScenarioAnswerSource } from './scenario.js';
import { SCENARIO_HEADER, requestedScenario } from './select-scenario.js';
import { upgradeAnswer } from './upgrade.js';

type OperationRoute = Extract<Route, { kind: 'operation' }>;

/** How operations are replayed (see {@link RoutesOptions.replay}). */
export interface ReplayRoutes {
  replayer: Replayer;
  /** Server-wide faults (`--fault`, `POST /__mockvideo/faults`), taken per request and applied to the recording's answer. */
  faults?: FaultBoard;
  /** Pass every request without an exact recording on (a `pass` plan), for the host to fetch and record it. */
  recordMissing?: boolean;
  /**
   * What answers a request without an exact recording (in either match mode), e.g.
   * {@link scenarioFallback}; `undefined` from it: the near-miss 404. Its answers get
   * `x-mockvideo-match: fallback`.
   */
  fallback?: (request: RouteRequest, route: OperationRoute) => Plan | Promise<Plan | undefined> | undefined;
  /** Hears the report of each request no recording answers. */
  onMiss?: (report: NearMissReport) => void;
}

/** What the routes answer from. */
export interface RoutesOptions {
  /** Scenarios: they answer the operations (without `replay`), `meta/upgrade` and the downloads. */
  scenarios?: ScenarioAnswerSource;
  /** Recordings answer the operations. */
  replay?: ReplayRoutes;
  /** Requests to an operation or `meta/upgrade` (GET or HEAD) pass on to the recorder (`mockvideo record`). */
  record?: boolean;
  /**
   * With a recorder (`record`, `replay --record-missing`): why a request under `/api/g1` must be
   * refused (403) before anything else, or `undefined` (e.g. a foreign `Host` or a cross-site
   * `Origin`, so that no web page can poison recordings or read the upstream's answers).
   */
  refuse?: (request: RouteRequest) => string | undefined;
  /** Answer requests to operations with contract findings with 400 (`--strict-requests`); read per request. */
  strictRequests?: () => boolean;
  /** Generated answers answer the operations (`serve --fuzz`, `fuzzHandlers`), before recordings and scenarios. */
  fuzz?: FuzzAnswers;
  /** The clock the `_ts` finding checks against (`--clock`); default the scenarios' responder's, else real time. */
  clock?: Clock;
}

/** Plans one request: see {@link createRoutes}. */
export type Routes = (request: RouteRequest) => Plan | Promise<Plan>;

/** Whether a path's percent-escapes decode (as UTF-8). */
function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** The marks of `--record-missing`'s exchanges: `x-mockvideo-match: recorded` or `passthrough` (see {@link PassMarks}). */
export const RECORD_MISSING_MARKS: PassMarks = Object.freeze({
  recorded: Object.freeze({ [MATCH_HEADER]: 'recorded' }),
  passthrough: Object.freeze({ [MATCH_HEADER]: 'passthrough' }),
});

/** Whether a route is of the device-facing surface (answered by the routes, not by the host's own app). */
export function isDeviceRoute(route: Route): boolean {
  return route.kind !== 'admin' && route.kind !== 'other';
}

/**
 * The checks every request meets before it is planned, in any adapter: 414 for a target over
 * {@link MAX_URL_LENGTH} characters (any route); for a route of the device-facing surface, 400
 * without an origin (no valid `Host`), then 403 when `refuse` names a reason for a route under
 * `/api/g1`. `undefined`: go on.
 */
export function precheck(request: RouteRequest, route: Route, refuse?: RoutesOptions['refuse']): Answer | undefined {
  const length = request.path.length + (request.query ? request.query.length + 1 : 0);
  if (length > MAX_URL_LENGTH) return targetTooLong(length, MAX_URL_LENGTH);
  if (!isDeviceRoute(route)) return undefined;
  if (!request.origin) return noHostHeader();
  if (refuse && (route.kind === 'operation' || route.kind === 'upgrade' || route.kind === 'unknown-operation')) {
    const reason = refuse(request);
    if (reason !== undefined) return refusedForwarding(reason);
  }
  return undefined;
}

const answer = (route: Route, findings: readonly Finding[], answered: Answer, delayMs = 0): Plan => ({
  kind: 'answer',
  route,
  findings,
  delayMs,
  answer: answered,
});

function fromPlanned(route: Route, findings: readonly Finding[], planned: PlannedAnswer): Plan {
  return planned.answer
    ? answer(route, findings, planned.answer, planned.delayMs)
    : { kind: 'drop', route, findings, delayMs: planned.delayMs, fault: planned.fault ?? 'reset' };
}

/** The scenario's plan for a request to an operation (the scenario the request picks, else the active one). */
function scenarioPlan(
  source: ScenarioAnswerSource,
  request: RouteRequest,
  route: OperationRoute,
  findings: readonly Finding[],
): Plan {
  const scenario = requestedScenario(route.scenario, headerValue(request.headers, SCENARIO_HEADER));
  return fromPlanned(
    route,
    findings,
    planScenarioAnswer(source, route.operation, {
      method: request.method,
      scenario,
      query: request.query,
      origin: request.origin,
      address: request.address,
    }),
  );
}

/** A replay fallback (see {@link ReplayRoutes.fallback}) that answers from scenarios, as `--fallback-scenario` does. */
export function scenarioFallback(source: ScenarioAnswerSource): NonNullable<ReplayRoutes['fallback']> {
  return (request, route) => scenarioPlan(source, request, route, NO_FINDINGS);
}

const fallbackAnswers = new WeakMap<Answer, Answer>();

/** A fallback's plan with `x-mockvideo-match: fallback` on its answer (made once per shared answer). */
function asFallback(plan: Plan): Plan {
  if (plan.kind !== 'answer') return plan;
  let marked = fallbackAnswers.get(plan.answer);
  if (!marked)
    fallbackAnswers.set(
      plan.answer,
      (marked = { ...plan.answer, headers: { ...plan.answer.headers, [MATCH_HEADER]: 'fallback' } }),
    );
  return { ...plan, answer: marked };
}

/** A recording's (or a miss's) plan changed by server-wide faults (see `planFaults`); a `pass` or `drop` plan as it is. */
function withFaults(plan: Plan, faults: readonly Fault[]): Plan {
  if (plan.kind !== 'answer') return plan;
  const answered = plan.answer;
  const planned = planFaults(faults, () => ({ ...answered, body: bodyText(answered) }));
  return fromPlanned(plan.route, plan.findings, { ...planned, delayMs: planned.delayMs + plan.delayMs });
}

/** The plan of a recording the replayer found (`exact` or `nearest`), or `undefined` for another outcome. */
function recordingPlan(
  recordings: RecordingAnswers,
  route: OperationRoute,
  findings: readonly Finding[],
  found: ReplayOutcome,
): Plan | Promise<Plan> | undefined {
  if (found.kind !== 'exact' && found.kind !== 'nearest') return undefined;
  const made = recordings.answer(found.entry, found.kind, found.kind === 'nearest' ? found.differences : []);
  return made instanceof Promise
    ? made.then((done) => answer(route, findings, done, recordings.delayMs(done)))
    : answer(route, findings, made, recordings.delayMs(made));
}

/** The plan of a request no recording answers exactly (nor a fallback): the near-miss 404, heard by `onMiss`. */
function missPlan(
  replayRoutes: ReplayRoutes,
  request: RouteRequest,
  route: OperationRoute,
  findings: readonly Finding[],
  outcome: ReplayOutcome,
): Plan {
  if (outcome.kind !== 'miss') return { kind: 'none', route, findings };
  replayRoutes.onMiss?.(outcome.report);
  return answer(route, findings, missAnswer(outcome.report, request.headers));
}

/**
 * The routes of mockvideo's device-facing surface: what every request gets, whatever adapter
 * carries it (the MSW handlers, the Node host, the recorder). Per request, in this order:
 * - the path rule (`routeOf`), then {@link precheck}: 414 for a target over {@link MAX_URL_LENGTH}
 *   characters, 400 without `Host`, 403 for what `refuse` refuses; not a route of the surface → `none`;
 * - with `record`, an operation or `meta/upgrade` (GET or HEAD, after the strict check) → `pass`;
 *   the same 405 and 404 as `serve` otherwise (what `serve` calls an operation, `record` records);
 * - an operation: its contract findings (sent as a count in `x-mockvideo-findings`), 400 with
 *   `strictRequests` when there are any, 405 for a method other than GET/HEAD; then from recordings
 *   (exact; else `pass` with `recordMissing`; else the fallback when there is one, else nearest in `nearest` mode; else
 *   the near-miss 404) or from the scenario (stubs, sequences, faults: `planScenarioAnswer`);
 * - `meta/upgrade` from the scenario; other paths under `/api/g1`: 404 naming the operations;
 * - placeholder images, plugin and provider packages (GET/HEAD, with scenarios) from `Downloads`.
 *
 * Advances sequence and fault counters: call it once per request. Any runtime.
 */
export function createRoutes(options: RoutesOptions): Routes {
  const { scenarios, replay, record = false, strictRequests } = options;
  const clock = options.clock ?? scenarios?.responder.clock;
  const recordings = replay ? new RecordingAnswers(replay.replayer) : undefined;
  let downloads: Downloads | Promise<Downloads> | undefined;
  const downloadsNow = (source: ScenarioAnswerSource) =>
    (downloads ??= import('./downloads.js').then(
      ({ Downloads }) => (downloads = new Downloads(() => source.responder.catalog)),
    ));

  const replayOperation = (
    request: RouteRequest,
    route: OperationRoute,
    findings: readonly Finding[],
    replayRoutes: ReplayRoutes,
  ): Plan | Promise<Plan> => {
    const { replayer } = replayRoutes;
    const mode = replayRoutes.recordMissing || replayRoutes.fallback ? 'strict' : replayer.match;
    const outcome = replayer.findOfOperation(request.method, route.operation, request.query, mode, request.address);
    if (outcome.kind === 'exact') return recordingPlan(recordings!, route, findings, outcome)!;
    if (replayRoutes.recordMissing) return { kind: 'pass', route, findings, marks: RECORD_MISSING_MARKS };
    if (!replayRoutes.fallback)
      return (
        recordingPlan(recordings!, route, findings, outcome) ??
        missPlan(replayRoutes, request, route, findings, outcome)
      );
    // A fallback scenario answers whatever has no exact recording (never a nearest one: that is
    // another device's or another query's answer).
    const fellBack = replayRoutes.fallback(request, route);
    if (fellBack instanceof Promise)
      return fellBack.then((plan) =>
        plan ? { ...asFallback(plan), findings } : missPlan(replayRoutes, request, route, findings, outcome),
      );
    return fellBack ? { ...asFallback(fellBack), findings } : missPlan(replayRoutes, request, route, findings, outcome);
  };

  const operation = (request: RouteRequest, route: OperationRoute): Plan | Promise<Plan> => {
    const nowSeconds = clock ? clock.nowSeconds() : Math.floor(Date.now() / 1000);
    const findings = queryFindings(route.operation, request.query, hasBody(request.headers), nowSeconds);
    if (strictRequests?.() && findings.length) return answer(route, findings, strictRequestsError(findings));
    if ((record || replay) && request.method !== 'GET' && request.method !== 'HEAD')
      return answer(route, findings, methodNotAllowed(request.method, route.operation));
    if (record) return { kind: 'pass', route, findings };
    if (options.fuzz)
      return answer(
        route,
        findings,
        request.method === 'GET' || request.method === 'HEAD'
          ? options.fuzz.answer(route.operation, request.query, request.address)
          : methodNotAllowed(request.method, route.operation),
      );
    if (replay) {
      const faults = replay.faults?.take(route.operation, request) ?? [];
      const made = replayOperation(request, route, findings, replay);
      if (!faults.length) return made;
      return made instanceof Promise ? made.then((plan) => withFaults(plan, faults)) : withFaults(made, faults);
    }
    if (!scenarios) return { kind: 'none', route, findings };
    return scenarioPlan(scenarios, request, route, findings);
  };

  const download = (request: RouteRequest, route: DownloadRoute): Plan | Promise<Plan> => {
    if (!scenarios || (request.method !== 'GET' && request.method !== 'HEAD'))
      return { kind: 'none', route, findings: NO_FINDINGS };
    const made = downloadsNow(scenarios);
    if (made instanceof Promise)
      return made.then((ready) => answer(route, NO_FINDINGS, ready.answer(route, request.query)));
    return answer(route, NO_FINDINGS, made.answer(route, request.query));
  };

  return (request) => {
    const route = routeOf(request.path);
    const refused = precheck(request, route, options.refuse);
    if (refused) return answer(route, NO_FINDINGS, refused);
    switch (route.kind) {
      case 'operation':
        return operation(request, route);
      case 'upgrade':
        if (!scenarios && !record) return answer(route, NO_FINDINGS, unknownOperation(route.path));
        if (request.method !== 'GET' && request.method !== 'HEAD')
          return answer(route, NO_FINDINGS, methodNotAllowed(request.method, UPGRADE_OPERATION));
        if (record || !scenarios) return { kind: 'pass', route, findings: NO_FINDINGS };
        return answer(
          route,
          NO_FINDINGS,
          upgradeAnswer(
            scenarios.responder.catalog,
            requestedScenario(route.scenario, headerValue(request.headers, SCENARIO_HEADER)) ??
              scenarios.activeScenario(),
            request.query,
            request.origin,
          ),
        );
      case 'unknown-operation':
        // Never forwarded, in record mode either: the upstream sees `/api/g1/<operation>` only.
        return answer(
          route,
          NO_FINDINGS,
          decodes(route.path)
            ? unknownOperation(route.path)
            : errorBody(400, `Cannot read this request: its path ${route.path} has a malformed percent-escape.`),
        );
      case 'media':
      case 'plugins':
      case 'apk':
        return download(request, route);
      default:
        return { kind: 'none', route, findings: NO_FINDINGS };
    }
  };
}
