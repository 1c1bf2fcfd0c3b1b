/**
 * `mockvideo/arbitraries`: fast-check arbitraries of contract-valid answers, for property tests of a
 * client's parsing and rendering code (a failure shrinks to a minimal answer), and `fuzzHandlers`,
 * MSW handlers answering the same bytes as `mockvideo serve --fuzz <seed>` for the same case. Loads
 * fast-check (an optional peer dependency: install it to use this entry); the main entry
 * `mockvideo` never does. Any runtime.
 *
 * @example
 * import fc from 'fast-check';
 * import { arbitraries } from 'mockvideo/arbitraries';
 * fc.assert(fc.property(arbitraries.recommendations(), (items) => render(items) !== undefined));
 * @module
 */
import type { HttpHandler } from 'msw';
import { fuzzAnswer, parseCase } from './fuzz/case.js';
import type { FuzzOptions } from './fuzz/options.js';
import { routeHandlers } from './msw/adapter.js';
import { FuzzAnswers, type FuzzRoutesOptions } from './routes/index.js';

export { EDGE_CLASSES, classesOf, edgeClassesFor, type EdgeClass } from './fuzz/classes.js';
export { caseId, fuzzAnswer, parseCase, type FuzzAnswer, type FuzzCase } from './fuzz/case.js';
export { answerText, type OperationData } from './fuzz/operations.js';
export { type FuzzClassReport, type FuzzReport } from './routes/fuzz.js';
export { FUZZ_HEADER } from './routes/answer-headers.js';
export { INTEGER_WIDTHS, type IntegerWidth } from './fuzz/options.js';
export type { FuzzOptions };

/**
 * The arbitraries, one per resource, per operation's `data` and for the envelope; each takes
 * {@link FuzzOptions} (`beyondObserved`, `integers`, `classes`, `exclude`). Values are typed as
 * `mockvideo/contract` types them.
 * @see docs/contract.md (the seed section of each resource); docs/fuzz.md (the edge classes).
 */
export * as arbitraries from './fuzz/arbitraries.js';

/**
 * Options of {@link fuzzHandlers}: the run's `seed` (0 ≤ seed < 2^32, as `serve --fuzz <seed>` takes
 * it), `beyondObserved`, `integers` (32, 53 or 64), `classes`/`exclude` (edge class names) and
 * `perDevice`, as the `serve --fuzz-*` flags of the same names.
 */
export interface FuzzHandlersOptions extends Omit<FuzzRoutesOptions, 'fixedCase' | 'generate'> {
  /** A case (`42:meta/plugin:3`) answered every time for its operation, as `serve --fuzz-case`. */
  fuzzCase?: string;
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
}

/**
 * MSW handlers that answer the six operations with generated answers: the same bytes and
 * `x-mockvideo-fuzz` case header as `mockvideo serve --fuzz <seed>` for the same device's calls
 * (a device is its `_sdevid`, else its `_anoyid`; msw knows no address). Other paths are left to
 * other handlers (`meta/upgrade` gets the 404 naming the operations).
 *
 * @throws Error naming the case when `fuzzCase` is not one, or an unknown class.
 * @example setupServer(...fuzzHandlers({ seed: 42, exclude: ['title-long'] }))
 * @see docs/fuzz.md
 */
export function fuzzHandlers(options: FuzzHandlersOptions): HttpHandler[] {
  const fixedCase = options.fuzzCase === undefined ? undefined : parseCase(options.fuzzCase);
  return routeHandlers({ fuzz: new FuzzAnswers({ ...options, fixedCase, generate: fuzzAnswer }) }, options.baseUrl);
}
