/**
 * The seed as code: operations, envelope, payload schemas, query parameters and deep links.
 * Imports nothing else of mockvideo.
 * @module
 */
export * from './ad-config.js';
export * from './common-parameters.js';
export * from './content-provider.js';
export * from './deep-link.js';
export * from './diversion.js';
export * from './envelope.js';
export * from './json-text.js';
export * from './operations.js';
export * from './plugin.js';
export * from './recommended-video.js';
export * from './settings.js';
