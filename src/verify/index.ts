/**
 * Verify: the journal against the seed's call rules. Any runtime.
 * @module
 */
export * from './verify.js';
export * from './start-ups.js';
