import type { HttpHandler } from 'msw';
import { createHandlers } from './handlers.js';

/** The shipped scenario names; see `src/scenarios/scenario-names.ts`. */
export { scenarioNames } from '../scenarios/scenario-names.js';

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
 * @see docs/contract.md#operations, and docs/contract.md for the answers.
 */
export const handlers: readonly HttpHandler[] = /* @__PURE__ */ Object.freeze(createHandlers());
