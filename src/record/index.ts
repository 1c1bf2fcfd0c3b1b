/**
 * Record: the recording reverse proxy (Node only).
 * @module
 */
export * from './proxy.js';
export * from './wire.js';
