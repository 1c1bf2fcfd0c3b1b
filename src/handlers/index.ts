/**
 * Scenario → MSW request handlers. Runtime-agnostic: no Node built-ins.
 * @module
 */
export * from './create-handlers.js';
export * from './error-responses.js';
export * from './responder.js';
export * from './scenario-answer.js';
export * from './select-scenario.js';
