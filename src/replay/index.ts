/**
 * Replay: recordings (parsed objects, or references whose responses a `RecordingSource` reads when
 * served) → an in-memory index, near-miss reports and HAR 1.2 conversion. Pure: runs
 * in any runtime.
 * @module
 */
export * from './check.js';
export * from './har.js';
export * from './near-miss.js';
export * from './recording-index.js';
export * from './recording-source.js';
export * from './replayer.js';
