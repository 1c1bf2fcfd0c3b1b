/**
 * The seed as code: operations, envelope, payload schemas, query parameters and deep links.
 * Imports nothing else of mockvideo. `core.ts` is the same without the zod schemas (the serving path
 * imports that one).
 * @module
 */
export * from './core.js';
export * from './ad-config.js';
export * from './content-provider.js';
export * from './diversion.js';
export * from './envelope-schema.js';
export * from './operations.js';
export * from './plugin.js';
export * from './recommended-video.js';
export * from './settings.js';
