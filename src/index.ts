/**
 * `mockvideo`: the any-runtime entry. MSW request handlers that answer the six GET operations of the
 * video-player backend (`/api/g1/...`) from named scenarios, for `setupServer` (Node, vitest/jest),
 * `setupWorker` (browser) and React Native. No Node built-ins: the shipped scenarios are embedded at
 * build time, and the layer rules (`npm run layers`, `npm run lint`) keep `node:*` and Node globals out.
 *
 * Node-only helpers (scenario folders, recordings) live in `mockvideo/node`; the contract's types
 * and schemas in `mockvideo/contract`; the scenario parser (`parseScenario`, `shippedScenarios`,
 * with zod) in `mockvideo/scenarios`, so that importing this entry loads no zod.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'mockvideo';
 * const server = setupServer(...createHandlers({ scenario: 'gallery' }));
 * @module
 */
export {
  createHandlers,
  createScenarioHandlers,
  type CatalogScenarioOptions,
  type CreateHandlersOptions,
  type HandlerSettings,
  type ScenarioHandlerOptions,
  type ShippedScenarioOptions,
} from './msw/handlers.js';
export { handlers, scenarioNames } from './msw/shipped-handlers.js';
export { bundleHandlers, type BundleHandlerOptions } from './msw/bundle-handlers.js';
export type {
  Bundle,
  BundleAnswer,
  BundleExchange,
  BundleFuzz,
  BundleScenario,
  BundleVerdict,
} from './bundle/format.js';
export {
  onUnhandled,
  unmockedRequests,
  type UnhandledOptions,
  type UnhandledStrategy,
  type UnmockedRequests,
  type WithLifeCycleEvents,
} from './msw/unmocked.js';
export { SCENARIO_HEADER } from './routes/select-scenario.js';
export type { ClockFields } from './clock/clock.js';
export type { FaultPlanJson, FaultSpec } from './faults/plan-check.js';
export { buildCatalog, ScenarioCatalog, type CompiledScenario } from './scenarios/catalog.js';
export type { ScenarioFile } from './scenarios/format.js';
export type { ParsedScenario, ParseResult } from './scenarios/parse.js';
export { isScenarioName, type ScenarioName } from './scenarios/scenario-names.js';
export { shippedCatalog } from './scenarios/shipped-catalog.js';
export { MockvideoError, ScenarioError, UnknownScenarioError, type ErrorCode, type ScenarioProblem } from './errors.js';
