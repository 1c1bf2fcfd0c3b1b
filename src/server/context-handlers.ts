import type { HttpHandler } from 'msw';
import { createScenarioHandlers } from '../handlers/create-handlers.js';
import type { ServerContext } from './context.js';

/**
 * The scenario handlers of a context: they answer from the active scenario (or the one a request
 * picks), share the context's sequence counters and take its server-wide faults.
 */
export function contextHandlers(context: ServerContext): HttpHandler[] {
  return createScenarioHandlers(context.catalog, { activeScenario: () => context.active.scenario, responder: context.responder, faults: context.faults });
}
