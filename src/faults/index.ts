/**
 * Faults: what can go wrong with an answer (delay, status, envelope, malformed-json, empty, reset,
 * hang), planned per stub in scenario files or for the whole server. Any runtime.
 * @module
 */
export * from './board.js';
export * from './fault.js';
