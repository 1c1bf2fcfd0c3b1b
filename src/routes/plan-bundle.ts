/**
 * How the routes plan a request to an operation from a start-up bundle (`mockvideo replay FILE`,
 * `bundleHandlers`): the exchange the device's call gets (see `BundleAnswers`) as it happened, its
 * fault a fault again (a `reset` a reset, a `hang` a hang, a wait a wait), else the near-miss 404;
 * with server-wide faults applied on top. Pure, any runtime.
 * @module
 */
import type { BundleAnswers } from '../bundle/answers.js';
import { exchangeName, type BundleExchange } from '../bundle/format.js';
import type { FaultBoard } from '../faults/board.js';
import { HANG_MS } from '../faults/fault.js';
import type { Finding } from '../findings/index.js';
import { REDACTED } from '../normalise/policy.js';
import type { NearMissReport } from '../replay/near-miss.js';
import type { OperationRoute } from './plan-replay.js';
import { withFaults } from './plan-replay.js';
import { missAnswer } from './replay.js';
import { answerPlan, type Answer, type Plan, type PlanFacts, type RouteRequest } from './request.js';

/** How operations are answered from a bundle (see `RoutesOptions.bundle`). */
export interface BundleRoutes {
  /** The bundle's answers and each device's place in them. */
  answers: BundleAnswers;
  /** Server-wide faults (`--fault`, `POST /__mockvideo/faults`), applied on top of the bundle's answer. */
  faults?: FaultBoard;
  /** Hears the report of each request the bundle does not hold. */
  onMiss?: (report: NearMissReport) => void;
}

const made = new WeakMap<BundleExchange, Answer>();

/**
 * The answer of an exchange as it was sent: its status and exact bytes (`body`, decoded by
 * `BundleAnswers`), its headers but those the response step renders from the plan
 * (`x-mockvideo-*`) and a redacted credential header (`set-cookie: <REDACTED>` carries nothing but
 * would break cookie parsing). Made once per exchange.
 */
function answerOf(exchange: BundleExchange, body: Uint8Array): Answer {
  let answer = made.get(exchange);
  if (!answer) {
    const sent = exchange.answer!;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(sent.headers))
      if (!name.startsWith('x-mockvideo-') && value !== REDACTED) headers[name] = value;
    answer = { status: sent.status, headers, body };
    made.set(exchange, answer);
  }
  return answer;
}

/**
 * Plans a request to an operation from a bundle: the exchange of the device's call as it happened
 * (after its `delayMs`: its answer, or with no answer a closed connection: a `reset`, else a `hang`,
 * which also stands for a client that went away during the wait), saying `match: 'bundle'`, which
 * exchange (`recording: 'exchanges[3]'`), and the scenario, step, fault and fuzz case it had; a call
 * the bundle does not hold gets the near-miss 404, heard by `onMiss`. Server-wide faults (taken
 * first, once per request) change the answer.
 */
export function bundlePlan(
  source: BundleRoutes,
  request: RouteRequest,
  route: OperationRoute,
  findings: readonly Finding[],
): Plan {
  const faults = source.faults?.take(route.operation, request) ?? [];
  const outcome = source.answers.take(request.method, route.operation, request.query, request.address);
  if (outcome.kind === 'miss') {
    source.onMiss?.(outcome.report);
    return withFaults(answerPlan(route, findings, missAnswer(outcome.report, request.headers)), faults);
  }
  const { exchange, index, body } = outcome;
  const facts: PlanFacts = {
    match: 'bundle',
    recording: exchangeName(index),
    ...(exchange.scenario !== null ? { scenario: exchange.scenario } : {}),
    ...(exchange.step !== undefined ? { step: exchange.step } : {}),
    ...(exchange.fault !== null ? { fault: exchange.fault } : {}),
    ...(exchange.fuzz !== undefined ? { fuzz: exchange.fuzz } : {}),
  };
  if (body === undefined) {
    const fault = exchange.fault === 'reset' ? 'reset' : 'hang';
    const delayMs = exchange.delayMs || (fault === 'hang' ? HANG_MS : 0);
    return { ...facts, kind: 'drop', route, findings, delayMs, fault };
  }
  return withFaults(answerPlan(route, findings, answerOf(exchange, body), exchange.delayMs, facts), faults);
}
