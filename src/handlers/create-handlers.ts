import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { API_PREFIX, operationOfPath } from '../contract/core.js';
import { shippedCatalog, type ScenarioCatalog, type ScenarioName } from '../scenarios/index.js';
import type { FaultBoard } from '../faults/board.js';
import { unknownOperation } from './error-responses.js';
import { ScenarioResponder } from './responder.js';
import { planScenarioAnswer, type Answer, type PlannedAnswer } from './scenario-answer.js';
import { SCENARIO_HEADER, requestedScenario } from './select-scenario.js';

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

/** An {@link Answer} as msw's response: the stored text as it is (not `HttpResponse.json()`, which would re-serialise and lose the body's `\u0026` escapes). */
export function toHttpResponse(answer: Answer): HttpResponse<string> {
  return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
}

/** A {@link PlannedAnswer} as msw's response: after its delay, the answer or a network error (`reset`, `hang`). */
function respondAsPlanned(planned: PlannedAnswer): HttpResponse<string> | Promise<HttpResponse<string>> {
  const respond = () => (planned.answer ? toHttpResponse(planned.answer) : (HttpResponse.error() as HttpResponse<string>));
  return planned.delayMs > 0 ? delay(planned.delayMs).then(respond) : respond();
}

/**
 * MSW handlers for the six operations: one handler on `/api/g1/*` that looks the operation up
 * (so a request costs one handler match, not one per operation) and dispatches on the scenario of
 * the request (header `x-mockvideo-scenario`, path prefix `/scenarios/<name>`, else
 * `activeScenario()`). What each request gets is {@link planScenarioAnswer}'s; any other path
 * under `/api/g1` gets a 404 naming the operations.
 *
 * @example createScenarioHandlers(catalog, { activeScenario: () => 'gallery' })
 * @see docs/contract.md#operations.
 */
export function createScenarioHandlers(catalog: ScenarioCatalog, options: ScenarioHandlerOptions): HttpHandler[] {
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const source = { responder: options.responder ?? new ScenarioResponder(catalog), activeScenario: options.activeScenario, ...(options.faults ? { faults: options.faults } : {}) };
  return [
    http.all(`${base}${API_PREFIX}/*`, ({ request }) => {
      const url = new URL(request.url);
      const operation = operationOfPath(url.pathname);
      if (!operation) return toHttpResponse(unknownOperation(url.pathname));
      return respondAsPlanned(
        planScenarioAnswer(source, operation, {
          method: request.method,
          scenario: requestedScenario(url.pathname, request.headers.get(SCENARIO_HEADER)),
          query: () => url.searchParams,
          origin: () => url.origin,
        }),
      );
    }),
  ];
}

/** Options of {@link createHandlers} that serve a shipped scenario. */
export interface ShippedScenarioOptions {
  /** The shipped scenario to serve (one of `scenarioNames`); default `default`. A misspelling is a type error. */
  scenario?: ScenarioName;
  /** Origin to match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** No catalog of your own: the scenario comes from the shipped ones. */
  catalog?: undefined;
}

/** Options of {@link createHandlers} that serve a scenario of your own catalog (e.g. `loadScenario(...)` of `mockvideo/node`). */
export interface CatalogScenarioOptions {
  /** Any scenario name of `catalog`; default `default`. Checked when the handlers are created. */
  scenario?: string;
  /** Origin to match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** Where the scenario comes from: the shipped scenarios overlaid by your files, or a catalog built with `buildCatalog`. */
  catalog: ScenarioCatalog;
}

/**
 * Options of {@link createHandlers}: without a `catalog`, `scenario` is a {@link ScenarioName}
 * (the shipped names); with a catalog of your own, any `string` (checked at run time).
 */
export type CreateHandlersOptions = ShippedScenarioOptions | CatalogScenarioOptions;

/**
 * MSW request handlers that serve one scenario, for `setupServer(...)` or `setupWorker(...)`.
 * Without a `catalog`, `scenario` is one of the shipped {@link ScenarioName}s (a misspelling does
 * not compile; narrow a run-time `string` with `isScenarioName`); with your own catalog, any of
 * its names.
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
