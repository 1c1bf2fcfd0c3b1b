import { toServiceJson } from '../contract/core.js';
import type { FaultBoard } from '../faults/board.js';
import { FAULT_DEFAULTS, HANG_MS, combineFaults, delayOf, isOutcomeFault, type Fault } from '../faults/fault.js';
import { malformedBody } from '../faults/malformed.js';
import { JSON_CONTENT_TYPE, bodyFor, type PreparedResponse } from '../scenarios/compile.js';
import { noStubMatched, unknownScenario } from './errors.js';
import { resolveNow } from '../clock/clock.js';
import type { Finding } from '../findings/index.js';
import type { Route } from '../normalise/path.js';
import type { QueryValues } from '../normalise/query.js';
import type { ScenarioResponder } from './responder.js';
import type { ClientRequest } from '../state/client-state.js';
import { answerPlan, type Plan, type PlanFacts, type Answer as RouteAnswer, type RouteRequest } from './request.js';
import { scenarioOf } from './select-scenario.js';

/**
 * A scenario's answer ready to send: status, headers (lower-case names), the body as bytes (one
 * buffer shared by every request that gets this answer, so slow readers hold no copy of their own)
 * and as text (for what reads it, such as the `malformed-json` fault). Never changed once made.
 */
export interface ScenarioAnswer extends RouteAnswer {
  readonly body: Uint8Array | string;
  readonly text: string;
}

/** Where a scenario answer comes from: the responder (catalog and sequence counters), the active scenario, server-wide faults. */
export interface ScenarioAnswerSource {
  responder: ScenarioResponder;
  /** The server's scenario: it answers when neither the request nor its device picks one; read on every request. */
  activeScenario: () => string;
  /**
   * The scenario of the device a request comes from (see `clientOf`), or `undefined` when it
   * follows the server's (e.g. `DeviceScenarios.of`); read on every request a scenario answers,
   * after the request's own pick and before {@link activeScenario} (see `scenarioOf`). Default: none.
   */
  deviceScenario?: (request: ClientRequest) => string | undefined;
  /** Server-wide faults, taken before the scenario's own; default: none. */
  faults?: FaultBoard;
}

/**
 * The most origins whose answers are remembered per prepared response (a client controls the
 * origin, through its Host header); then they are forgotten all at once.
 */
const MAX_ORIGINS_PER_ANSWER = 16;

const answers = new WeakMap<PreparedResponse, Map<string, ScenarioAnswer>>();
const encoder = new TextEncoder();

/**
 * The answer of a prepared response to a request made to `origin` (see `bodyFor`): made once per
 * origin (at most {@link MAX_ORIGINS_PER_ANSWER} per prepared response), then shared, its body
 * encoded once.
 *
 * Why a memo: without it `serve` answered 18,655 req/s on one operation, with it 28,400 (+52%),
 * `npx autocannon -c 50 -d 6` on meta/cp, Node 20, quiet machine, 2026-11-27; in `npm run bench`
 * serve went from 1.0× to ≥ 1.5× talkback (the target of issue 32). The cost was the body text
 * rebuilt (`bodyFor`) and re-encoded by the host on every request. Its one buffer is also what
 * keeps 100 slow readers of a 7.6 MB stub from holding 100 copies (issue 39, L4).
 */
function preparedAnswer(prepared: PreparedResponse, origin = ''): ScenarioAnswer {
  let byOrigin = answers.get(prepared);
  if (!byOrigin) answers.set(prepared, (byOrigin = new Map()));
  const originKey = prepared.hasOrigin ? origin : '';
  let made = byOrigin.get(originKey);
  if (!made) {
    if (byOrigin.size >= MAX_ORIGINS_PER_ANSWER) byOrigin.clear();
    const text = bodyFor(prepared, originKey);
    made = { status: prepared.status, headers: prepared.headers, body: encoder.encode(text), text };
    byOrigin.set(originKey, made);
  }
  return made;
}

/** What a fault plan is built on: where the request went, its findings, and what was decided so far. */
type PlanBase = PlanFacts & { readonly route: Route; readonly findings: readonly Finding[] };

/**
 * The plan of one fault applied to an answer (`normal` makes the answer it changes, for `delay` and
 * `malformed-json`), with `base`'s facts and the fault's kind: `delay` sends `normal` later;
 * `status`, `envelope`, `malformed-json` and `empty` replace it; `reset` plans a reset connection,
 * `hang` one closed after {@link HANG_MS} ms.
 *
 * @see docs/contract.md#errors: the client logs failed fetches of operations 1, 3 and 4.
 */
function faultPlan(base: PlanBase, fault: Fault, normal: () => ScenarioAnswer): Plan {
  const facts = { ...base, fault: fault.kind };
  const replaced = (status: number, body: string) =>
    answerPlan(base.route, base.findings, { status, headers: FAULT_ANSWER_HEADERS, body }, 0, facts);
  switch (fault.kind) {
    case 'delay':
      return answerPlan(base.route, base.findings, normal(), delayOf(fault), facts);
    case 'status':
      return replaced(fault.status, fault.body ?? JSON.stringify({ error: `Injected fault: HTTP ${fault.status}` }));
    case 'envelope':
      return replaced(
        200,
        toServiceJson({
          data: {},
          msg: fault.msg ?? 'Injected fault: envelope failure',
          result: fault.result ?? FAULT_DEFAULTS.envelopeResult,
        }),
      );
    case 'malformed-json':
      return replaced(200, malformedBody(normal().text));
    case 'empty':
      return replaced(200, '');
    case 'hang':
      return { ...facts, kind: 'drop', delayMs: HANG_MS, fault: 'hang' };
    case 'reset':
      return { ...facts, kind: 'drop', delayMs: 0, fault: 'reset' };
  }
}

/** The headers of an answer a fault makes in place of the normal one. */
const FAULT_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_CONTENT_TYPE });

/**
 * Applies the faults of one request (see `combineFaults`: at most one `delay`, first, and one other
 * kind) to the answer `normal` makes, on top of `base` (route, findings, facts so far) and a wait of
 * `delayMs` planned before them (recorded latency): the other kind's plan, later by the delay; a
 * lone fault as {@link faultPlan}.
 */
export function planFaults(base: PlanBase, faults: readonly Fault[], normal: () => ScenarioAnswer, delayMs = 0): Plan {
  const outcome = faults.find(isOutcomeFault);
  const delay = faults.find((fault) => !isOutcomeFault(fault));
  const planned = faultPlan(base, outcome ?? delay!, normal);
  const extra = delayMs + (outcome && delay?.kind === 'delay' ? delayOf(delay) : 0);
  return extra > 0 && planned.kind !== 'pass' && planned.kind !== 'none'
    ? { ...planned, delayMs: planned.delayMs + extra }
    : planned;
}

/**
 * What mockvideo plans for one request to `operation` from scenarios: the single definition of
 * scenario behaviour, read by the routes (`plan.ts`) for every adapter. (The method is the routes'
 * check, made before.)
 *
 * - 404 JSON for an unknown scenario, or when no stub of the scenario matches the query;
 * - else the matching stub's answer (the next of a sequence), after its latency, changed by a
 *   server-wide fault (taken first) or the stub's or scenario's fault; the plan names the scenario,
 *   the step of a sequence and the fault.
 *
 * `scenario` is the one that answers (see `scenarioOf`). Advances sequence and fault counters, and takes planned server-wide faults: call
 * it once per request.
 * @see docs/contract.md#operations.
 */
function planScenarioAnswer(
  source: ScenarioAnswerSource,
  request: RouteRequest,
  route: Extract<Route, { kind: 'operation' }>,
  findings: readonly Finding[],
  scenario: string,
  values: QueryValues | undefined,
): Plan {
  const { operation } = route;
  // Read the catalog per request: a reload (watch mode) replaces it in the responder.
  const { responder } = source;
  if (!responder.catalog.has(scenario))
    return answerPlan(route, findings, unknownScenario(scenario, responder.catalog.names));
  const planned = source.faults?.take(operation, request) ?? [];
  const outcome = responder.respond(scenario, operation, request.query, request.address, values);
  if (!outcome.matched)
    return answerPlan(route, findings, noStubMatched(scenario, operation, outcome.stubs), 0, { scenario });
  const faults = combineFaults(planned, outcome.fault);
  const { response, step } = outcome;
  const base = { route, findings, scenario, step };
  const normal = () => normalAnswer(responder, response, request.origin);
  if (faults.length === 0)
    return answerPlan(route, findings, normal(), responder.latencyOf(response), { scenario, step });
  return planFaults(base, faults, normal);
}

/** The answer of a stub's response: its times relative to the clock resolved (see `resolveNow`). */
function normalAnswer(responder: ScenarioResponder, response: PreparedResponse, origin: string): ScenarioAnswer {
  const answer = preparedAnswer(response, origin);
  if (!response.hasNow) return answer;
  const text = resolveNow(answer.text, responder.clock.nowSeconds());
  return { ...answer, body: text, text };
}

/**
 * The scenario's plan for a request to an operation (from the scenario `scenarioOf` gives: the
 * request's pick, its device's, the server's; see {@link planScenarioAnswer}). `values` are the
 * request's decoded query parameters when the caller has them (the routes do: `queryValues`).
 */
export function scenarioPlan(
  source: ScenarioAnswerSource,
  request: RouteRequest,
  route: Extract<Route, { kind: 'operation' }>,
  findings: readonly Finding[],
  values?: QueryValues,
): Plan {
  return planScenarioAnswer(source, request, route, findings, scenarioOf(source, request, route.scenario), values);
}
