/**
 * Normalisation: query parsing that never throws, the declarative policy (volatile, secret and
 * identity parameters), the match key, recordings and their redaction. Pure: runs in any runtime.
 * Loads no zod: reading a recording file back (`parseRecording`) is in `recording-schema.ts`.
 * @module
 */
export * from './body.js';
export * from './match-key.js';
export * from './policy.js';
export * from './query.js';
export * from './recording.js';
export * from './redact.js';
export * from './build-recording.js';
export * from './scrub.js';
export * from './cookies.js';
