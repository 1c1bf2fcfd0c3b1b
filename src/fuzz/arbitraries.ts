/**
 * The `arbitraries` of `mockvideo/arbitraries`: one per resource, per operation's `data` (`operations`),
 * for the envelope and for a whole answer (`answer`). Any runtime.
 * @module
 */
export { adConfig, contentProvider, pluginEntry, settings } from './resources.js';
export { diversionSet, recommendations, recommendedVideo } from './recommended-video.js';
export { answerArbitrary as answer, dataArbitraries as operations, envelope } from './operations.js';
