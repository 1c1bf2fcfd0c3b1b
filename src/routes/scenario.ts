import { toServiceJson, type OperationName } from '../contract/core.js';
import type { FaultBoard } from '../faults/board.js';
import { FAULT_DEFAULTS, HANG_MS, combineFaults, delayOf, isOutcomeFault, type Fault } from '../faults/fault.js';
import { malformedBody } from '../faults/malformed.js';
import { JSON_CONTENT_TYPE, bodyFor, type PreparedResponse } from '../scenarios/compile.js';
import { methodNotAllowed, noStubMatched, unknownScenario } from './errors.js';
import { resolveNow } from '../clock/clock.js';
import { STEP_HEADER } from '../state/client-state.js';
import type { Finding } from '../findings/index.js';
import type { Route } from './path.js';
import type { ScenarioResponder } from './responder.js';
import { answerPlan, headerValue, type Plan, type Answer as RouteAnswer, type RouteRequest } from './request.js';
import { ANSWERED_BY_HEADER, SCENARIO_HEADER, requestedScenario } from './select-scenario.js';

/** The response header that names the fault applied to an answer. */
export const FAULT_HEADER = 'x-mockvideo-fault';

/** A scenario's answer ready to send: status, headers (lower-case names) and the exact body text. Shared between requests: never changed. */
export interface ScenarioAnswer extends RouteAnswer {
  readonly body: string;
}

/**
 * What a scenario plans for one request: wait `delayMs` milliseconds (0: answer at once), then send
 * `answer`, or, when `answer` is `undefined`, close the connection (`fault`: `reset` or `hang`).
 */
export interface PlannedAnswer {
  delayMs: number;
  answer: ScenarioAnswer | undefined;
  fault?: 'reset' | 'hang';
}

/** Where a scenario answer comes from: the responder (catalog and sequence counters), the active scenario, server-wide faults. */
export interface ScenarioAnswerSource {
  responder: ScenarioResponder;
  /** The scenario that answers when the request does not pick one; read on every request. */
  activeScenario: () => string;
  /** Server-wide faults, taken before the scenario's own; default: none. */
  faults?: FaultBoard;
}

const now = (answer: ScenarioAnswer): PlannedAnswer => ({ delayMs: 0, answer });

/**
 * The most origins whose answers are remembered per prepared response (a client controls the
 * origin, through its Host header); then they are forgotten all at once.
 */
const MAX_ORIGINS_PER_ANSWER = 16;

/** The answers of one prepared response to one origin: its body text, and each scenario's answer with it. */
interface OriginAnswers {
  readonly body: string;
  readonly byScenario: Map<string, ScenarioAnswer>;
}
const answers = new WeakMap<PreparedResponse, Map<string, OriginAnswers>>();

/**
 * The answer of a prepared response to a request made to `origin` (see `bodyFor`), with the scenario
 * header when `scenario` is given: made once per scenario and origin (at most
 * {@link MAX_ORIGINS_PER_ANSWER} origins per prepared response), then shared.
 *
 * Why a memo: without it `serve` answered 18,655 req/s on one operation, with it 28,400 (+52%),
 * `npx autocannon -c 50 -d 6` on meta/cp, Node 20, quiet machine, 2026-11-27; in `npm run bench`
 * serve went from 1.0× to ≥ 1.5× talkback (the target of issue 32). The cost was the body text
 * rebuilt (`bodyFor`) and re-encoded by the host on every request.
 */
export function preparedAnswer(prepared: PreparedResponse, scenario?: string, origin = ''): ScenarioAnswer {
  let byOrigin = answers.get(prepared);
  if (!byOrigin) answers.set(prepared, (byOrigin = new Map()));
  const originKey = prepared.hasOrigin ? origin : '';
  let made = byOrigin.get(originKey);
  if (!made) {
    if (byOrigin.size >= MAX_ORIGINS_PER_ANSWER) byOrigin.clear();
    byOrigin.set(originKey, (made = { body: bodyFor(prepared, originKey), byScenario: new Map() }));
  }
  let answer = made.byScenario.get(scenario ?? '');
  if (answer) return answer;
  const headers = scenario === undefined ? prepared.headers : { ...prepared.headers, [ANSWERED_BY_HEADER]: scenario };
  answer = { status: prepared.status, headers, body: made.body };
  made.byScenario.set(scenario ?? '', answer);
  return answer;
}

/**
 * Applies a fault to an answer. `normal` makes the answer the fault delays (for `delay`);
 * `extraHeaders` go on every answer the fault makes (the scenario header). `reset` plans no answer
 * (a reset connection); `hang` plans none after {@link HANG_MS} ms.
 *
 * @see docs/contract.md#errors: the client logs failed fetches of operations 1, 3 and 4.
 */
function planFault(
  fault: Fault,
  normal: () => ScenarioAnswer,
  extraHeaders: Record<string, string> = {},
): PlannedAnswer {
  const headers = { 'content-type': JSON_CONTENT_TYPE, [FAULT_HEADER]: fault.kind, ...extraHeaders };
  switch (fault.kind) {
    case 'delay': {
      const answer = normal();
      return {
        delayMs: delayOf(fault),
        answer: { ...answer, headers: { ...answer.headers, [FAULT_HEADER]: 'delay' } },
      };
    }
    case 'status':
      return now({
        status: fault.status,
        headers,
        body: fault.body ?? JSON.stringify({ error: `Injected fault: HTTP ${fault.status}` }),
      });
    case 'envelope':
      return now({
        status: 200,
        headers,
        body: toServiceJson({
          data: {},
          msg: fault.msg ?? 'Injected fault: envelope failure',
          result: fault.result ?? FAULT_DEFAULTS.envelopeResult,
        }),
      });
    case 'malformed-json':
      return now({ status: 200, headers, body: malformedBody(normal().body) });
    case 'empty':
      return now({ status: 200, headers, body: '' });
    case 'hang':
      return { delayMs: HANG_MS, answer: undefined, fault: 'hang' };
    case 'reset':
      return { delayMs: 0, answer: undefined, fault: 'reset' };
  }
}

/**
 * Applies the faults of one request (see `combineFaults`: at most one `delay`, first, and one other
 * kind): the other kind's answer, later by the delay; a lone fault as {@link planFault}.
 */
export function planFaults(
  faults: readonly Fault[],
  normal: () => ScenarioAnswer,
  extraHeaders: Record<string, string> = {},
): PlannedAnswer {
  const outcome = faults.find(isOutcomeFault);
  const delay = faults.find((fault) => !isOutcomeFault(fault));
  const planned = planFault(outcome ?? delay!, normal, extraHeaders);
  return outcome && delay && delay.kind === 'delay'
    ? { ...planned, delayMs: planned.delayMs + delayOf(delay) }
    : planned;
}

/**
 * What mockvideo answers to one request to `operation`: the single definition of scenario
 * behaviour, read by the routes (`plan.ts`) for every adapter.
 *
 * - 405 for a method other than GET/HEAD;
 * - 404 JSON for an unknown scenario, or when no stub of the scenario matches the query;
 * - else the matching stub's answer (the next of a sequence), with header `x-mockvideo-scenario`,
 *   changed by a server-wide fault (taken first) or the stub's or scenario's fault.
 *
 * `picked` is the scenario the request picks (header or `/scenarios/<name>` prefix), `undefined` for
 * the active one. Advances sequence and fault counters, and takes planned server-wide faults: call
 * it once per request.
 * @see docs/contract.md#operations.
 */
function planScenarioAnswer(
  source: ScenarioAnswerSource,
  operation: OperationName,
  request: RouteRequest,
  picked: string | undefined,
): PlannedAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') return now(methodNotAllowed(request.method, operation));
  const scenario = picked ?? source.activeScenario();
  // Read the catalog per request: a reload (watch mode) replaces it in the responder.
  const { responder } = source;
  if (!responder.catalog.has(scenario)) return now(unknownScenario(scenario, responder.catalog.names));
  const planned = source.faults?.take(operation, request) ?? [];
  const outcome = responder.respond(scenario, operation, request.query, request.address);
  if (!outcome.matched) return now(preparedAnswer(noStubMatched(scenario, operation, outcome.stubs), scenario));
  const faults = combineFaults(planned, outcome.fault);
  const { response, step } = outcome;
  if (faults.length === 0)
    return {
      delayMs: responder.latencyOf(response),
      answer: normalAnswer(responder, response, scenario, request.origin, step),
    };
  return planFaults(faults, () => normalAnswer(responder, response, scenario, request.origin, step), {
    [ANSWERED_BY_HEADER]: scenario,
  });
}

/**
 * The answer of a stub's response: its times relative to the clock resolved (see `resolveNow`) and,
 * for a step of a sequence, the `x-mockvideo-step` header (e.g. `2/3`, see `stepText`).
 */
function normalAnswer(
  responder: ScenarioResponder,
  response: PreparedResponse,
  scenario: string,
  origin: string,
  step: string | undefined,
): ScenarioAnswer {
  const answer = preparedAnswer(response, scenario, origin);
  return {
    status: answer.status,
    headers: step === undefined ? answer.headers : { ...answer.headers, [STEP_HEADER]: step },
    body: response.hasNow ? resolveNow(answer.body, responder.clock.nowSeconds()) : answer.body,
  };
}

/** The plan of a scenario's (or a fault's) planned answer: send it, or close the connection. */
export function plannedPlan(route: Route, findings: readonly Finding[], planned: PlannedAnswer): Plan {
  return planned.answer
    ? answerPlan(route, findings, planned.answer, planned.delayMs)
    : { kind: 'drop', route, findings, delayMs: planned.delayMs, fault: planned.fault ?? 'reset' };
}

/** The scenario's plan for a request to an operation (the scenario the request picks, else the active one; see {@link planScenarioAnswer}). */
export function scenarioPlan(
  source: ScenarioAnswerSource,
  request: RouteRequest,
  route: Extract<Route, { kind: 'operation' }>,
  findings: readonly Finding[],
): Plan {
  const picked = requestedScenario(route.scenario, headerValue(request.headers, SCENARIO_HEADER));
  return plannedPlan(route, findings, planScenarioAnswer(source, route.operation, request, picked));
}
