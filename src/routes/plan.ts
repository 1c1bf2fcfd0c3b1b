/**
 * The routes of the device-facing surface: one function that plans what every request gets, in
 * every mode, whatever adapter carries it. Pure, any runtime.
 * @module
 */
import type { Clock } from '../clock/clock.js';
import { requestFindings } from '../findings/index.js';
import { queryValues, type QueryValues } from '../normalise/index.js';
import type { Downloads, DownloadRoute } from './downloads.js';
import { errorBody, methodNotAllowed, strictRequestsError, unknownOperation } from './errors.js';
import type { FuzzAnswers } from './fuzz.js';
import { routeOf, type Route } from '../normalise/path.js';
import { bundlePlan, type BundleRoutes } from './plan-bundle.js';
import { replayPlan, type OperationRoute, type ReplayRoutes } from './plan-replay.js';
import type { Fault } from '../faults/fault.js';
import type { Finding } from '../findings/index.js';
import { precheck } from './precheck.js';
import { RecordingAnswers } from './replay.js';
import { answerPlan, bodyText, hasBody, type Plan, type RouteRequest } from './request.js';
import { planFaults, scenarioPlan, type ScenarioAnswerSource } from './scenario.js';
import { scenarioOf } from './select-scenario.js';
import { upgradeAnswer } from './upgrade.js';

/** What the routes answer from. */
export interface RoutesOptions {
  /** Scenarios: they answer the operations (without `replay`), `meta/upgrade` and the downloads. */
  scenarios?: ScenarioAnswerSource;
  /** Recordings answer the operations. */
  replay?: ReplayRoutes;
  /** A start-up bundle answers the operations, in its order (`replay FILE`, `bundleHandlers`), before recordings and scenarios. */
  bundle?: BundleRoutes;
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

/**
 * A generated answer's plan, changed by the server-wide `faults` taken for the request (as a
 * recording's or a stub's is): the answer is generated only when the fault sends it (a `delay`,
 * `malformed-json`), so a `reset` or `status` uses no case, and the plan names the case it sent.
 */
function fuzzPlan(
  fuzz: FuzzAnswers,
  faults: readonly Fault[],
  request: RouteRequest,
  route: OperationRoute,
  findings: readonly Finding[],
): Plan {
  const generate = () => fuzz.answer(route.operation, request.query, request.address);
  if (!faults.length) {
    const { answer, case: fuzzCase } = generate();
    return answerPlan(route, findings, answer, 0, { fuzz: fuzzCase });
  }
  let made: ReturnType<FuzzAnswers['answer']> | undefined;
  const normal = () => {
    made ??= generate();
    return { ...made.answer, text: bodyText(made.answer) };
  };
  const plan = planFaults({ route, findings }, faults, normal);
  return made ? { ...plan, fuzz: made.case } : plan;
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

/**
 * Which routes the routes made with given options take (answer or pass on: anything but `none`),
 * by route kind: the one table `createRoutes` plans from and `routesCover` reads, so the MSW
 * handlers match exactly what the routes answer.
 */
const TAKES: Record<Route['kind'], (options: RoutesOptions) => boolean> = {
  operation: (options) =>
    Boolean(options.scenarios || options.replay || options.record || options.fuzz || options.bundle),
  upgrade: () => true,
  'unknown-operation': () => true,
  media: (options) => Boolean(options.scenarios),
  plugins: (options) => Boolean(options.scenarios),
  apk: (options) => Boolean(options.scenarios),
  admin: () => false,
  other: () => false,
};

/**
 * Whether the routes made with `options` (see `createRoutes`) take a request to `route`: answer it
 * or pass it on, anything but `none`. The operations, `meta/upgrade` and the rest of `/api/g1` (each
 * also below `/scenarios/<name>`) with scenarios, recordings, generated answers or the recorder;
 * the downloads under `/__mockvideo/` with scenarios; nothing else. The MSW handlers match only
 * these requests, so that msw's unhandled-request option hears every other one. Pure, any runtime.
 */
export function routesCover(options: RoutesOptions, route: Route): boolean {
  return TAKES[route.kind](options);
}

/** The methods every route of the device-facing surface takes (the seed: "Every operation shown is an HTTP GET"). */
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The routes of mockvideo's device-facing surface: what every request gets, whatever adapter
 * carries it (the MSW handlers, the Node host, the recorder). Per request, in this order:
 * - the path rule (`routeOf`), then `precheck`: 414 for a target over `MAX_URL_LENGTH`
 *   characters, 400 without `Host`, 403 for what `refuse` refuses; a route the options do not take
 *   (see {@link routesCover}) → `none`;
 * - a request to an operation: its contract findings (sent as a count in `x-mockvideo-findings`),
 *   400 with `strictRequests` when there are any;
 * - the one method rule: a method other than GET or HEAD → 405 (`allow: GET, HEAD`), on every route
 *   but the 404 of other paths under `/api/g1`;
 * - an operation: with `record` → `pass`; then generated answers (`fuzz`, changed by the scenarios'
 *   server-wide faults), a bundle (`bundlePlan`), recordings
 *   (`replayPlan`) or the scenario (stubs, sequences, faults: `scenarioPlan`);
 * - `meta/upgrade` from the scenario (`pass` with the recorder); other paths under `/api/g1`: 404
 *   naming the operations;
 * - placeholder images, plugin and provider packages from `Downloads`.
 *
 * Advances sequence and fault counters: call it once per request. Any runtime.
 */
export function createRoutes(options: RoutesOptions): Routes {
  const { scenarios, replay, bundle, record = false, strictRequests, fuzz } = options;
  const clock = options.clock ?? scenarios?.responder.clock;
  const recordings = replay ? new RecordingAnswers(replay.replayer) : undefined;
  let downloads: Promise<Downloads> | undefined;

  const operation = (
    request: RouteRequest,
    route: OperationRoute,
    findings: readonly Finding[],
    values: QueryValues,
  ): Plan | Promise<Plan> => {
    if (record) return { kind: 'pass', route, findings };
    if (fuzz) return fuzzPlan(fuzz, scenarios?.faults?.take(route.operation, request) ?? [], request, route, findings);
    if (bundle) return bundlePlan(bundle, request, route, findings);
    if (replay) return replayPlan(replay, recordings!, request, route, findings, values);
    return scenarioPlan(scenarios!, request, route, findings, values);
  };

  const upgrade = (request: RouteRequest, route: Extract<Route, { kind: 'upgrade' }>): Plan => {
    if (!scenarios && !record) return answerPlan(route, [], unknownOperation(route.path));
    if (record || !scenarios) return { kind: 'pass', route, findings: [] };
    const scenario = scenarioOf(scenarios, request, route.scenario);
    const answer = upgradeAnswer(scenarios.responder.catalog, scenario, request.query, request.origin);
    return answerPlan(route, [], answer, 0, scenarios.responder.catalog.has(scenario) ? { scenario } : {});
  };

  const download = async (request: RouteRequest, route: DownloadRoute): Promise<Plan> => {
    const source = scenarios!;
    downloads ??= import('./downloads.js').then(({ Downloads }) => new Downloads(() => source.responder.catalog));
    return answerPlan(route, [], (await downloads).answer(route, request.query));
  };

  return (request) => {
    const route = routeOf(request.path);
    const refused = precheck(request, route, options.refuse);
    if (refused) return answerPlan(route, [], refused);
    if (!TAKES[route.kind](options)) return { kind: 'none', route, findings: [] };
    if (route.kind === 'unknown-operation')
      // Never forwarded, in record mode either: the upstream sees `/api/g1/<operation>` only.
      return answerPlan(
        route,
        [],
        decodes(route.path)
          ? unknownOperation(route.path)
          : errorBody(
              'MV_REQUEST_UNREADABLE',
              `Cannot read this request: its path ${route.path} has a malformed percent-escape.`,
            ),
      );
    let findings: readonly Finding[] = [];
    // The query is split and decoded once, for the findings and the replay index.
    let values: QueryValues | undefined;
    if (route.kind === 'operation') {
      const nowSeconds = clock ? clock.nowSeconds() : Math.floor(Date.now() / 1000);
      findings = requestFindings({
        operation: route.operation,
        query: (values = queryValues(request.query)),
        hasBody: hasBody(request.headers),
        nowSeconds,
      });
      if (strictRequests?.() && findings.length) return answerPlan(route, findings, strictRequestsError(findings));
    }
    if (!isRead(request.method)) return answerPlan(route, findings, methodNotAllowed(request.method, route.path));
    switch (route.kind) {
      case 'operation':
        return operation(request, route, findings, values!);
      case 'upgrade':
        return upgrade(request, route);
      default:
        return download(request, route as DownloadRoute);
    }
  };
}
