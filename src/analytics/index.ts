/**
 * Analytics records the client sends: checks against the seed's "Events" and a ring-buffer store.
 * Pure: no Node built-ins.
 * @module
 */
export * from './record-checks.js';
export * from './store.js';
