import type { HttpHandler } from 'msw';
import { shippedCatalog } from '../scenarios/index.js';
import { createHandlers } from './handlers.js';

/**
 * The names of the scenarios shipped with mockvideo (`scenarios/*.json`, embedded at build time),
 * sorted with `default` first: the values `createHandlers({ scenario })` accepts without a catalog.
 *
 * Shape: `readonly string[]`, e.g. `['default', 'empty-ad-config', 'gallery', …]`.
 * Throws nothing at run time (a shipped scenario that failed validation fails the build instead).
 *
 * @example
 * import { scenarioNames } from 'mockvideo';
 * it.each(scenarioNames)('renders with scenario %s', async (scenario) => {
 *   server.use(...createHandlers({ scenario }));
 * });
 * @see seed "Endpoints" → "Operations" (the six operations every scenario answers).
 */
export const scenarioNames: readonly string[] = /* @__PURE__ */ Object.freeze(shippedCatalog().names);

/**
 * MSW request handlers for the shipped `default` scenario on any origin: the same array as
 * `createHandlers()`, for `setupServer(...handlers)` or `setupWorker(...handlers)`.
 *
 * Shape: `readonly HttpHandler[]`: one handler that answers the six operations, `meta/upgrade`,
 * any other path under `/api/g1` (a 404 listing the operations) and the downloads under
 * `/__mockvideo/` (images, plugin and provider packages), and leaves every other path.
 * Throws nothing at run time.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { handlers } from 'mockvideo';
 * const server = setupServer(...handlers);
 * @see seed "Endpoints" → "Operations", and "Resources and their fields" for the answers.
 */
export const handlers: readonly HttpHandler[] = /* @__PURE__ */ Object.freeze(createHandlers());
