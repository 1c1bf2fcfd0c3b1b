/**
 * Scenarios: the file format, parsing with precise errors, `extends` resolution and compilation.
 * Depends on the contract only. Takes parsed JSON, never paths: file access lives at the Node edge.
 * @module
 */
export * from './catalog.js';
export * from './compile.js';
export * from './format.js';
export * from './parse.js';
export * from './scenario-names.js';
export * from './shipped.js';
