/**
 * The routes of the device-facing surface: one function that plans what every request gets, in
 * every mode, whatever adapter carries it. Pure, any runtime.
 * @module
 */
import type { Clock } from '../clock/clock.js';
import { requestFindings } from '../findings/index.js';
import { queryValues } from '../normalise/index.js';
import type { Downloads, DownloadRoute } from './downloads.js';
import { errorBody, methodNotAllowed, strictRequestsError, unknownOperation } from './errors.js';
import type { FuzzAnswers } from './fuzz.js';
import { routeOf, UPGRADE_OPERATION, type Route } from './path.js';
import { replayPlan, type OperationRoute, type ReplayRoutes } from './plan-replay.js';
import { precheck } from './precheck.js';
import { RecordingAnswers } from './replay.js';
import { answerPlan, hasBody, headerValue, type Plan, type RouteRequest } from './request.js';
import { scenarioPlan, type ScenarioAnswerSource } from './scenario.js';
import { SCENARIO_HEADER, requestedScenario } from './select-scenario.js';
import { upgradeAnswer } from './upgrade.js';

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

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The routes of mockvideo's device-facing surface: what every request gets, whatever adapter
 * carries it (the MSW handlers, the Node host, the recorder). Per request, in this order:
 * - the path rule (`routeOf`), then `precheck`: 414 for a target over `MAX_URL_LENGTH`
 *   characters, 400 without `Host`, 403 for what `refuse` refuses; not a route of the surface → `none`;
 * - with `record`, an operation or `meta/upgrade` (GET or HEAD, after the strict check) → `pass`;
 *   the same 405 and 404 as `serve` otherwise (what `serve` calls an operation, `record` records);
 * - an operation: its contract findings (sent as a count in `x-mockvideo-findings`), 400 with
 *   `strictRequests` when there are any, 405 for a method other than GET/HEAD; then generated
 *   answers (`fuzz`), recordings (`replayPlan`) or the scenario (stubs, sequences, faults: `planScenarioAnswer`);
 * - `meta/upgrade` from the scenario; other paths under `/api/g1`: 404 naming the operations;
 * - placeholder images, plugin and provider packages (GET/HEAD, with scenarios) from `Downloads`.
 *
 * Advances sequence and fault counters: call it once per request. Any runtime.
 */
export function createRoutes(options: RoutesOptions): Routes {
  const { scenarios, replay, record = false, strictRequests, fuzz } = options;
  const clock = options.clock ?? scenarios?.responder.clock;
  const recordings = replay ? new RecordingAnswers(replay.replayer) : undefined;
  let downloads: Promise<Downloads> | undefined;

  const operation = (request: RouteRequest, route: OperationRoute): Plan | Promise<Plan> => {
    const nowSeconds = clock ? clock.nowSeconds() : Math.floor(Date.now() / 1000);
    // The query is split and decoded once, for the findings and the replay index.
    const values = queryValues(request.query);
    const findings = requestFindings({
      operation: route.operation,
      query: values,
      hasBody: hasBody(request.headers),
      nowSeconds,
    });
    if (strictRequests?.() && findings.length) return answerPlan(route, findings, strictRequestsError(findings));
    if ((record || replay || fuzz) && !isRead(request.method))
      return answerPlan(route, findings, methodNotAllowed(request.method, route.operation));
    if (record) return { kind: 'pass', route, findings };
    if (fuzz) return answerPlan(route, findings, fuzz.answer(route.operation, request.query, request.address));
    if (replay) return replayPlan(replay, recordings!, request, route, findings, values);
    if (!scenarios) return { kind: 'none', route, findings };
    return scenarioPlan(scenarios, request, route, findings);
  };

  const upgrade = (request: RouteRequest, route: Extract<Route, { kind: 'upgrade' }>): Plan => {
    if (!scenarios && !record) return answerPlan(route, [], unknownOperation(route.path));
    if (!isRead(request.method)) return answerPlan(route, [], methodNotAllowed(request.method, UPGRADE_OPERATION));
    if (record || !scenarios) return { kind: 'pass', route, findings: [] };
    const scenario = requestedScenario(route.scenario, headerValue(request.headers, SCENARIO_HEADER));
    const { catalog } = scenarios.responder;
    return answerPlan(
      route,
      [],
      upgradeAnswer(catalog, scenario ?? scenarios.activeScenario(), request.query, request.origin),
    );
  };

  const download = async (request: RouteRequest, route: DownloadRoute): Promise<Plan> => {
    if (!scenarios || !isRead(request.method)) return { kind: 'none', route, findings: [] };
    const source = scenarios;
    downloads ??= import('./downloads.js').then(({ Downloads }) => new Downloads(() => source.responder.catalog));
    return answerPlan(route, [], (await downloads).answer(route, request.query));
  };

  return (request) => {
    const route = routeOf(request.path);
    const refused = precheck(request, route, options.refuse);
    if (refused) return answerPlan(route, [], refused);
    switch (route.kind) {
      case 'operation':
        return operation(request, route);
      case 'upgrade':
        return upgrade(request, route);
      case 'unknown-operation':
        // Never forwarded, in record mode either: the upstream sees `/api/g1/<operation>` only.
        return answerPlan(
          route,
          [],
          decodes(route.path)
            ? unknownOperation(route.path)
            : errorBody(400, `Cannot read this request: its path ${route.path} has a malformed percent-escape.`),
        );
      case 'media':
      case 'plugins':
      case 'apk':
        return download(request, route);
      default:
        return { kind: 'none', route, findings: [] };
    }
  };
}
