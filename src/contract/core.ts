/**
 * The contract without its zod schemas: the operations table (names, paths, extra parameters), the
 * common query parameters, the envelope's success values, deep links, the service's JSON text and
 * the recommended-video rules. What the serving path imports, so a `serve` start loads no zod;
 * `index.ts` (the package's `mockvideo/contract`) exports all of it plus the payload schemas.
 * @module
 */
export * from './common-parameters.js';
export * from './deep-link.js';
export * from './envelope.js';
export * from './json-text.js';
export * from './operation-table.js';
export * from './recommended-video-target.js';
