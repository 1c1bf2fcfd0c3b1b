/**
 * Start-up bundles: their format and how one is built from the journal. Loads no zod (reading a
 * file back is `bundle-schema.ts`). Any runtime.
 * @module
 */
export * from './build.js';
export * from './format.js';
