import type { HttpHandler } from 'msw';
import type { FaultBoard } from '../faults/board.js';
import { createRoutes, ScenarioResponder } from '../routes/index.js';
import { shippedCatalog, type ScenarioCatalog } from '../scenarios/index.js';
import { routeHandlers } from './adapter.js';

/** Options of {@link createScenarioHandlers}. */
export interface ScenarioHandlerOptions {
  /** The scenario that answers when the request does not pick one; read on every request. */
  activeScenario: () => string;
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** The responder to use (shares sequence counters); default: a new one over the catalog. */
  responder?: ScenarioResponder;
  /** Server-wide faults, taken before the scenario's own; default: none. */
  faults?: FaultBoard;
  /** Answer requests to operations with contract findings with 400; read per request. */
  strictRequests?: () => boolean;
}

/**
 * MSW handlers for mockvideo's device-facing surface, answered from scenarios: the six operations
 * (the scenario of the request: header `x-mockvideo-scenario`, path prefix `/scenarios/<name>`,
 * else `activeScenario()`), `meta/upgrade`, placeholder images, plugin and provider packages under
 * `/__mockvideo/`, with `x-mockvideo-findings` on every answer of an operation. Any other path under
 * `/api/g1` gets a 404 naming the operations; other paths are left to other handlers.
 * What each request gets is the routes' (`createRoutes`): the same as `mockvideo serve` answers.
 *
 * @example createScenarioHandlers(catalog, { activeScenario: () => 'gallery' })
 * @see seed "Endpoints" → "Operations".
 */
export function createScenarioHandlers(catalog: ScenarioCatalog, options: ScenarioHandlerOptions): HttpHandler[] {
  const scenarios = { responder: options.responder ?? new ScenarioResponder(catalog), activeScenario: options.activeScenario, ...(options.faults ? { faults: options.faults } : {}) };
  return routeHandlers(createRoutes({ scenarios, ...(options.strictRequests ? { strictRequests: options.strictRequests } : {}) }), options.baseUrl);
}

/** Options of {@link createHandlers}. */
export interface CreateHandlersOptions {
  /** The scenario to serve; default `default`. */
  scenario?: string;
  /** Origin to match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** Where the scenario comes from; default: the shipped scenarios. */
  catalog?: ScenarioCatalog;
}

/**
 * MSW request handlers that serve one scenario, for `setupServer(...)` or `setupWorker(...)`.
 *
 * @throws UnknownScenarioError (its message lists the known names) for an unknown scenario.
 * @example
 * const server = setupServer(...createHandlers({ scenario: 'gallery' }));
 * @see createScenarioHandlers for what the handlers answer.
 */
export function createHandlers(options: CreateHandlersOptions = {}): HttpHandler[] {
  const catalog = options.catalog ?? shippedCatalog();
  const scenario = options.scenario ?? 'default';
  catalog.get(scenario);
  const handlerOptions: ScenarioHandlerOptions = { activeScenario: () => scenario };
  if (options.baseUrl !== undefined) handlerOptions.baseUrl = options.baseUrl;
  return createScenarioHandlers(catalog, handlerOptions);
}
