/**
 * Faults: what can go wrong with an answer (delay, status, envelope, malformed-json, empty, reset,
 * hang), planned per stub in scenario files or for the whole server. Any runtime. This barrel loads
 * zod (the schemas and plan parsing); serving imports `board.js` and `fault.js`, which do not.
 * @module
 */
export * from './board.js';
export * from './fault.js';
export * from './fault-schema.js';
export * from './plan.js';
export * from './malformed.js';
