import { toServiceJson, type OperationName } from '../contract/core.js';
import type { FaultBoard } from '../faults/board.js';
import { HANG_MS, delayOf, type Fault } from '../faults/fault.js';
import { JSON_CONTENT_TYPE, bodyFor, type PreparedResponse } from '../scenarios/compile.js';
import { clientOf } from '../state/client-state.js';
import { statefulAnswer } from '../state/stateful-answer.js';
import { methodNotAllowed, noStubMatched, unknownScenario } from './error-responses.js';
import type { ScenarioResponder } from './responder.js';
import { ANSWERED_BY_HEADER } from './select-scenario.js';

/** The response header that names the fault applied to an answer. */
export const FAULT_HEADER = 'x-mockvideo-fault';

/** An answer ready to send: status, headers (lower-case names) and the exact body text. Shared between requests: never changed. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What to do for one request, whatever carries it (msw's `HttpResponse` or Node's `ServerResponse`):
 * wait `delayMs` milliseconds (0: answer at once), then send `answer`, or, when `answer` is
 * `undefined`, reset the connection (the `reset` and `hang` faults).
 */
export interface PlannedAnswer {
  delayMs: number;
  answer: Answer | undefined;
}

/** One request to an operation, as {@link planScenarioAnswer} needs it. */
export interface OperationRequest {
  method: string;
  /** The scenario the request picks (header or `/scenarios/<name>` prefix), or `undefined` for the active one. */
  scenario: string | undefined;
  /** The query, for the stubs' `when` conditions; a function is called only when a condition is checked. */
  query: URLSearchParams | (() => URLSearchParams);
  /** The origin the client used (`http://10.0.2.2:8787`), for `{origin}` in bodies; read only when a body has one. */
  origin: () => string;
  /** The connection's address, which names the client when the query has neither `_sdevid` nor `_anoyid` (see `clientOf`). */
  address?: string;
}

/** Where a scenario answer comes from: the responder (catalog and sequence counters), the active scenario, server-wide faults. */
export interface ScenarioAnswerSource {
  responder: ScenarioResponder;
  /** The scenario that answers when the request does not pick one; read on every request. */
  activeScenario: () => string;
  /** Server-wide faults, taken before the scenario's own; default: none. */
  faults?: FaultBoard;
}

const now = (answer: Answer): PlannedAnswer => ({ delayMs: 0, answer });

/**
 * The most origins whose answers are remembered per prepared response and scenario (a client
 * controls the origin, through its Host header). Scenarios need no bound: only the catalog's reach here.
 */
const MAX_ORIGINS_PER_ANSWER = 16;
const answers = new WeakMap<PreparedResponse, Map<string, Map<string, Answer>>>();

/**
 * The answer of a prepared response (the scenario header added when `scenario` is given, a scenario
 * of the catalog), made once per scenario and origin and then shared, so serving it again allocates
 * nothing. Many scenarios may share one prepared response (one that extends another and changes
 * nothing): each keeps its own answer.
 */
export function preparedAnswer(prepared: PreparedResponse, scenario?: string, origin = ''): Answer {
  let byScenario = answers.get(prepared);
  if (!byScenario) answers.set(prepared, (byScenario = new Map()));
  let byOrigin = byScenario.get(scenario ?? '');
  if (!byOrigin) byScenario.set(scenario ?? '', (byOrigin = new Map()));
  const originKey = prepared.hasOrigin ? origin : '';
  let answer = byOrigin.get(originKey);
  if (answer) return answer;
  const headers = scenario === undefined ? prepared.headers : { ...prepared.headers, [ANSWERED_BY_HEADER]: scenario };
  answer = { status: prepared.status, headers, body: bodyFor(prepared, originKey) };
  if (byOrigin.size >= MAX_ORIGINS_PER_ANSWER) byOrigin.clear();
  byOrigin.set(originKey, answer);
  return answer;
}

/**
 * Applies a fault to an answer. `normal` makes the answer the fault delays (for `delay`);
 * `extraHeaders` go on every answer the fault makes (the scenario header). `reset` plans no answer
 * (a reset connection); `hang` plans none after {@link HANG_MS} ms.
 *
 * @see seed "Errors": the client logs failed fetches of operations 1, 3 and 4.
 */
export function planFault(fault: Fault, normal: () => Answer, extraHeaders: Record<string, string> = {}): PlannedAnswer {
  const headers = { 'content-type': JSON_CONTENT_TYPE, [FAULT_HEADER]: fault.kind, ...extraHeaders };
  switch (fault.kind) {
    case 'delay': {
      const answer = normal();
      return { delayMs: delayOf(fault), answer: { ...answer, headers: { ...answer.headers, [FAULT_HEADER]: 'delay' } } };
    }
    case 'status':
      return now({ status: fault.status, headers, body: fault.body ?? JSON.stringify({ error: `Injected fault: HTTP ${fault.status}` }) });
    case 'envelope':
      return now({ status: 200, headers, body: toServiceJson({ data: {}, msg: fault.msg ?? 'Injected fault: envelope failure', result: fault.result ?? 0 }) });
    case 'malformed-json':
      return now({ status: 200, headers, body: '{"data":{"codec_level":"3","recommend_exit_' });
    case 'empty':
      return now({ status: 200, headers, body: '' });
    case 'hang':
      return { delayMs: HANG_MS, answer: undefined };
    case 'reset':
      return { delayMs: 0, answer: undefined };
  }
}

/**
 * What mockvideo answers to one request to `operation`: the single definition of scenario
 * behaviour, shared by the MSW handlers and the server's fast path.
 *
 * - 405 for a method other than GET/HEAD;
 * - 404 JSON for an unknown scenario, or when no stub of the scenario matches the query;
 * - else the matching stub's answer (the next of a sequence), with header `x-mockvideo-scenario`,
 *   changed by a server-wide fault (taken first) or the stub's or scenario's fault.
 *
 * Advances sequence and fault counters, and takes planned server-wide faults: call it once per request.
 * @see seed "Endpoints" → "Operations".
 */
export function planScenarioAnswer(source: ScenarioAnswerSource, operation: OperationName, request: OperationRequest): PlannedAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') return now(methodNotAllowed(request.method, operation));
  const scenario = request.scenario ?? source.activeScenario();
  // Read the catalog per request: a reload (watch mode) replaces it in the responder.
  const { responder } = source;
  if (!responder.catalog.has(scenario)) return now(unknownScenario(scenario, responder.catalog.names));
  let params: URLSearchParams | undefined;
  const query = () => (params ??= typeof request.query === 'function' ? request.query() : request.query);
  let client: string | undefined;
  const clientNow = () => (client ??= clientOf(query(), request.address));
  const planned = source.faults?.take(operation, clientNow);
  const outcome = responder.respond(scenario, operation, query, clientNow);
  if (!outcome.matched) return now(preparedAnswer(noStubMatched(scenario, operation, outcome.stubs), scenario));
  const fault = planned ?? outcome.fault;
  const { response } = outcome;
  const normal = () => statefulAnswer(preparedAnswer(response, scenario, response.hasOrigin ? request.origin() : ''), outcome.step, response.hasNow ? responder.clock.nowSeconds() : undefined);
  return fault ? planFault(fault, normal, { [ANSWERED_BY_HEADER]: scenario }) : { delayMs: responder.latencyOf(response), answer: normal() };
}
