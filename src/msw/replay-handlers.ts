import type { HttpHandler } from 'msw';
import type { Clock } from '../clock/clock.js';
import type { FaultBoard } from '../faults/board.js';
import { faultBoardOf, type FaultSpec } from '../faults/plan-check.js';
import type { NamedRecording } from '../normalise/index.js';
import { Replayer, type ReplayerOptions } from '../replay/replayer.js';
import type { NearMissReport } from '../replay/near-miss.js';
import type { ReplayRoutes } from '../routes/index.js';
import { routeHandlers } from './adapter.js';
import { askHandlers } from './ask-handlers.js';

/** Options of {@link createReplayHandlers}. */
export interface ReplayHandlerOptions extends ReplayerOptions {
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** Use this replayer (shares sequences and the unused list); default: a new one over `recordings`. */
  replayer?: Replayer;
  /** Handlers that answer what the recordings do not (e.g. a scenario's); their answers carry `x-mockvideo-match: fallback`. */
  fallback?: readonly HttpHandler[];
  /** Leave every request without an exact recording unanswered, so the host can fetch and record it. */
  recordMissing?: boolean;
  /** Called with the report of each request no recording answers. */
  onMiss?: (report: NearMissReport) => void;
  /** The clock the `_ts` finding checks against (a server's `--clock`); default real time. */
  clock?: Clock;
  /** Faults applied to the answers, as `mockvideo replay --fault` applies them (see `createHandlers`' `faults`); default: none. */
  faults?: FaultBoard | readonly FaultSpec[];
}

/**
 * MSW handlers that replay recordings (parsed objects, never paths): the six operations, and a 404
 * naming them for any other path under `/api/g1`; other paths are left to other handlers.
 *
 * A request is answered by the recording of its exact match key (`x-mockvideo-match: exact`); in
 * `nearest` mode (the default) else by the closest recording of the same operation (`nearest`);
 * else by the `fallback` handlers (`fallback`); else with a 404 near-miss report: JSON, or the
 * side-by-side table when the request accepts `text/plain`. The answers are the routes'
 * (`createRoutes`): the same as `mockvideo replay` answers.
 *
 * @example
 * const server = setupServer(...createReplayHandlers(recordings, { match: 'strict' }));
 * @see replayer.ts for the matching rules; near-miss.ts for the report.
 */
export function createReplayHandlers(
  recordings: readonly NamedRecording[],
  options: ReplayHandlerOptions = {},
): HttpHandler[] {
  const { fallback, recordMissing, onMiss } = options;
  const replay: ReplayRoutes = {
    replayer: options.replayer ?? new Replayer(recordings, options),
    recordMissing,
    fallback: fallback && ((request) => askHandlers(fallback, request)),
    onMiss,
    faults: faultBoardOf(options.faults),
  };
  return routeHandlers({ replay, clock: options.clock }, options.baseUrl);
}
