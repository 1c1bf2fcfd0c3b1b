import type { HttpHandler } from 'msw';
import { askHandlers } from '../../msw/ask-handlers.js';
import { routeOf, type Routes } from '../../routes/index.js';

/**
 * `--engine msw`: the MSW handlers of a mode's routes options (`routeHandlers(options)`, the ones
 * `createHandlers` / `createReplayHandlers` give test authors) as the routes of the Node host,
 * through msw's own `getResponse` (msw 2 and 3 alike; see `askHandlers`). Slower than the default
 * engine (`createRoutes(options)` of the same options), same answers: the plan is the handlers'
 * own, read from the request they were asked with. What no handler takes is left to the Express
 * host (`none`); a failure of the handlers rejects, which the host answers with the routes' 500.
 */
export function mswRoutes(handlers: readonly HttpHandler[]): Routes {
  return async (request) =>
    (await askHandlers(handlers, request)) ?? { kind: 'none', route: routeOf(request.path), findings: [] };
}
