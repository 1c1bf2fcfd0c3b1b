/**
 * The journal of requests to operations, and its HAR export. Any runtime.
 * @module
 */
export * from './har.js';
export * from './journal.js';
export * from './journal-view.js';
