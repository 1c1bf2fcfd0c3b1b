/**
 * The routes of mockvideo's device-facing surface: one path rule, one request shape, one planned
 * answer per request (see `createRoutes`). The MSW handlers (`src/msw/`) and the Node host
 * (`src/server/host/device-host.ts`) are adapters of these. No Node built-ins, msw or Express: any runtime.
 * @module
 */
export * from './answer-headers.js';
export * from './errors.js';
export * from '../normalise/path.js';
export * from './plan.js';
export * from './plan-bundle.js';
export * from './plan-replay.js';
export * from './precheck.js';
export * from './replay.js';
export * from './request.js';
export * from './responder.js';
export * from './scenario.js';
export * from './select-scenario.js';
export * from './upgrade.js';
export * from './fuzz.js';
