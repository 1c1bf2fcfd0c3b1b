/**
 * How the routes plan a request to an operation from recordings: exact, else passed on
 * (`--record-missing`), else a fallback, else nearest, else the near-miss 404; with server-wide
 * faults applied to the answer. Pure, any runtime.
 * @module
 */
import type { FaultBoard } from '../faults/board.js';
import type { Fault } from '../faults/fault.js';
import type { Finding } from '../findings/index.js';
import type { QueryValues } from '../normalise/index.js';
import type { NearMissReport } from '../replay/near-miss.js';
import type { Replayer } from '../replay/replayer.js';
import type { Route } from '../normalise/path.js';
import { RecordingAnswers, missAnswer, recordingFacts } from './replay.js';
import { answerPlan, bodyText, type Answer, type Plan, type PlanFacts, type RouteRequest } from './request.js';
import { planFaults, scenarioPlan, type ScenarioAnswerSource } from './scenario.js';

/** A route to an operation. */
export type OperationRoute = Extract<Route, { kind: 'operation' }>;

/** How operations are replayed (see `RoutesOptions.replay`). */
export interface ReplayRoutes {
  replayer: Replayer;
  /** Server-wide faults (`--fault`, `POST /__mockvideo/faults`), taken per request and applied to the recording's answer. */
  faults?: FaultBoard;
  /** Pass every request without an exact recording on (a `pass` plan), for the host to fetch and record it. */
  recordMissing?: boolean;
  /**
   * What answers a request without an exact recording (in either match mode), e.g.
   * {@link scenarioFallback}; `undefined` from it: the near-miss 404. Its plans say `match: 'fallback'`.
   */
  fallback?: (request: RouteRequest, route: OperationRoute) => Plan | Promise<Plan | undefined> | undefined;
  /** Hears the report of each request no recording answers. */
  onMiss?: (report: NearMissReport) => void;
}

/** A replay fallback (see {@link ReplayRoutes.fallback}) that answers from scenarios, as `--fallback-scenario` does. */
export function scenarioFallback(source: ScenarioAnswerSource): NonNullable<ReplayRoutes['fallback']> {
  return (request, route) => scenarioPlan(source, request, route, []);
}

/** A fallback's plan, saying `match: 'fallback'`, with the request's findings. */
function asFallback(plan: Plan, findings: readonly Finding[]): Plan {
  return { ...plan, findings, match: 'fallback' };
}

/**
 * A recording's, a bundle's (or a miss's) plan changed by server-wide faults (see `planFaults`: the
 * fault's answer, or the recorded one later), its facts kept; a `pass` or `drop` plan as it is.
 */
export function withFaults(plan: Plan, faults: readonly Fault[]): Plan {
  if (plan.kind !== 'answer' || !faults.length) return plan;
  const { kind: _kind, answer, delayMs, ...base } = plan;
  return planFaults(base, faults, () => ({ ...answer, text: bodyText(answer) }), delayMs);
}

/**
 * Plans a request to an operation from recordings: the exact recording; else `pass` with
 * `recordMissing`; else the fallback when there is one (never a nearest recording: that is another
 * device's or another query's answer); else the nearest in `nearest` mode; else the near-miss 404,
 * heard by `onMiss`. Server-wide faults (taken first, once per request) change the answer.
 * `values`: the request's decoded query (see `queryValues`), read once by the routes.
 */
export function replayPlan(
  replay: ReplayRoutes,
  recordings: RecordingAnswers,
  request: RouteRequest,
  route: OperationRoute,
  findings: readonly Finding[],
  values: QueryValues,
): Plan | Promise<Plan> {
  const { replayer } = replay;
  const faults = replay.faults?.take(route.operation, request) ?? [];
  const mode = replay.recordMissing || replay.fallback ? 'strict' : replayer.match;
  const outcome = replayer.findOfOperation(
    request.method,
    route.operation,
    request.query,
    mode,
    request.address,
    values,
  );
  const done = (plan: Plan) => withFaults(plan, faults);
  const miss = (): Plan => {
    if (outcome.kind !== 'miss') return { kind: 'none', route, findings };
    replay.onMiss?.(outcome.report);
    return answerPlan(route, findings, missAnswer(outcome.report, request.headers));
  };
  if (outcome.kind === 'exact' || (outcome.kind === 'nearest' && !replay.recordMissing && !replay.fallback)) {
    const facts: PlanFacts = recordingFacts(
      outcome.entry,
      outcome.kind,
      outcome.kind === 'nearest' ? outcome.differences : [],
    );
    const made = recordings.answer(outcome.entry);
    const planOf = (answer: Answer) => done(answerPlan(route, findings, answer, recordings.delayMs(answer), facts));
    return made instanceof Promise ? made.then(planOf) : planOf(made);
  }
  if (replay.recordMissing) return done({ kind: 'pass', route, findings, marked: true });
  const fellBack = replay.fallback?.(request, route);
  if (fellBack instanceof Promise) return fellBack.then((plan) => done(plan ? asFallback(plan, findings) : miss()));
  return done(fellBack ? asFallback(fellBack, findings) : miss());
}
