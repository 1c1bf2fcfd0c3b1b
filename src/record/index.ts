/**
 * Record: the recording reverse proxy (Node only).
 * @module
 */
export * from './budget.js';
export * from './proxy.js';
export * from './upstream-problem.js';
export * from './what-to-record.js';
export * from './wire.js';
