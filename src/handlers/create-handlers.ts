import { http, HttpResponse, type HttpHandler } from 'msw';
import { API_PREFIX, OPERATION_NAMES, type OperationName } from '../contract/index.js';
import { bodyFor, shippedCatalog, type PreparedResponse, type ScenarioCatalog } from '../scenarios/index.js';
import type { FaultBoard } from '../faults/index.js';
import { answerWithFault } from './fault-response.js';
import { methodNotAllowed, noStubMatched, unknownOperation, unknownScenario } from './error-responses.js';
import { ScenarioResponder } from './responder.js';
import { ANSWERED_BY_HEADER, requestedScenario } from './select-scenario.js';

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
}

function answer(prepared: PreparedResponse, scenario?: string, origin = ''): HttpResponse<string> {
  const headers = scenario === undefined ? prepared.headers : { ...prepared.headers, [ANSWERED_BY_HEADER]: scenario };
  // Stored text, not HttpResponse.json(): the body's `\u0026` escapes must reach the client as written.
  return new HttpResponse(bodyFor(prepared, origin), { status: prepared.status, headers });
}

/**
 * MSW handlers for the six operations, one per operation, each dispatching on the scenario of the
 * request (header `x-mockvideo-scenario`, path prefix `/scenarios/<name>`, else `activeScenario()`),
 * plus one that answers any other path under `/api/g1` with a 404 naming the operations.
 *
 * Answers: the scenario's envelope (header `x-mockvideo-scenario` names the scenario); 405 for a
 * method other than GET/HEAD; 404 JSON for an unknown scenario or when no stub matches.
 *
 * @example createScenarioHandlers(catalog, { activeScenario: () => 'gallery' })
 * @see seed "Endpoints" → "Operations".
 */
export function createScenarioHandlers(catalog: ScenarioCatalog, options: ScenarioHandlerOptions): HttpHandler[] {
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const responder = options.responder ?? new ScenarioResponder(catalog);
  const operationHandler = (operation: OperationName) =>
    http.all(`${base}${API_PREFIX}/${operation}`, ({ request }) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return answer(methodNotAllowed(request.method, operation));
      const url = new URL(request.url);
      const scenario = requestedScenario(url.pathname, request.headers) ?? options.activeScenario();
      // Read the catalog per request: a reload (watch mode) replaces it in the responder.
      if (!responder.catalog.has(scenario)) return answer(unknownScenario(scenario, responder.catalog.names));
      const planned = options.faults?.take(operation);
      const outcome = responder.respond(scenario, operation, url.searchParams);
      if (!outcome.matched) return answer(noStubMatched(scenario, operation, outcome.stubs), scenario);
      const fault = planned ?? outcome.fault;
      const normal = () => answer(outcome.response, scenario, url.origin);
      return fault ? answerWithFault(fault, normal, { [ANSWERED_BY_HEADER]: scenario }) : normal();
    });
  return [
    ...OPERATION_NAMES.map(operationHandler),
    http.all(`${base}${API_PREFIX}/*`, ({ request }) => answer(unknownOperation(new URL(request.url).pathname))),
  ];
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
