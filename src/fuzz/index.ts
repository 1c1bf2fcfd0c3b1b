/**
 * The fuzz generator: fast-check arbitraries of contract-valid answers with named edge classes,
 * and case ids that rebuild one answer byte for byte. Loads fast-check: imported only by the
 * `mockvideo/arbitraries` entry and by `serve --fuzz` (lazily), never by the main entry.
 * @module
 */
export * from './case.js';
export * from './classes.js';
export { respell } from './deep-links.js';
export * from './operations.js';
export * from './options.js';
export { diversionSet, OBSERVED_ITEM, recommendations, recommendedVideo } from './recommended-video.js';
export * from './resources.js';
export { FUZZ_ORIGIN } from './text.js';
