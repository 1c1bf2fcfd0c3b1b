/**
 * Contract findings: checks of client requests against the seed's parameter tables. Any runtime.
 * @module
 */
export * from './request-findings.js';
