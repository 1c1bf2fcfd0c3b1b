import type { HttpHandler } from 'msw';
import { BundleAnswers } from '../bundle/answers.js';
import { BUNDLE_FORMAT, type Bundle } from '../bundle/format.js';
import { MockvideoError } from '../errors.js';
import type { NearMissReport } from '../replay/near-miss.js';
import { routeHandlers } from './adapter.js';

/** Options of {@link bundleHandlers}. */
export interface BundleHandlerOptions {
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** Called with the report of each request the bundle does not hold. */
  onMiss?: (report: NearMissReport) => void;
}

/**
 * MSW handlers that answer a start-up bundle (a parsed object: `loadBundle` of `mockvideo/node`
 * reads and checks a file) as `mockvideo replay FILE` does: each device's calls of an operation get
 * the bundle's exchanges of that operation in its order, with the same status, headers and bytes,
 * after the same wait; a `reset` (and a `hang`, after its 5 minutes or when the request is aborted)
 * is a network error (`fetch` rejects); a call the bundle does not hold gets the 404 near-miss
 * report. Answers carry `x-mockvideo-match: bundle` and `x-mockvideo-recording: exchanges[N]`.
 * Each call makes new handlers, whose places in the bundle start at its top: make them per test
 * (`server.use(...bundleHandlers(bundle))`) to replay the start-up in every test. Any runtime.
 *
 * @throws MockvideoError (`MV_BUNDLE_INVALID`) for a value whose `format` is not `mockvideo-bundle/1`
 * (the rest is checked by `loadBundle`).
 * @example
 * import { setupServer } from 'msw/node';
 * import { bundleHandlers } from 'mockvideo';
 * import { loadBundle } from 'mockvideo/node';
 * const server = setupServer(...bundleHandlers(loadBundle('test/bundles/start-up-7.json')));
 * @see docs/bundles.md for the format; docs/test-authors.md for a whole test.
 */
export function bundleHandlers(bundle: Bundle, options: BundleHandlerOptions = {}): HttpHandler[] {
  const format = (bundle as { format?: unknown } | null | undefined)?.format;
  if (format !== BUNDLE_FORMAT || !Array.isArray(bundle.exchanges))
    throw new MockvideoError(
      'MV_BUNDLE_INVALID',
      `bundleHandlers takes a start-up bundle (format "${BUNDLE_FORMAT}"), got ${format === undefined ? 'a value without "format"' : `format ${JSON.stringify(format)}`}. Read the file with loadBundle of mockvideo/node, which checks every field.`,
    );
  const answers = new BundleAnswers(bundle);
  return routeHandlers({ bundle: { answers, onMiss: options.onMiss } }, options.baseUrl);
}
