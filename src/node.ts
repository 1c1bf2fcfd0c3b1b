/**
 * `mockvideo/node`: the Node entry. Reads scenario files and recording folders from disk: your own
 * scenarios for `createHandlers` of `mockvideo`, and replay handlers for a folder recorded with
 * `mockvideo record`. Never bundled for browsers: the exports map answers `"browser": null` for it.
 * @module
 */
import { basename } from 'node:path';
import type { HttpHandler } from 'msw';
import { MockvideoError, RecordingError } from './errors.js';
import { DEFAULT_POLICY, type NamedRecording } from './normalise/index.js';
import { parseRecording } from './normalise/recording-schema.js';
import { createReplayHandlers as createReplayHandlersFor, type ReplayHandlerOptions } from './msw/replay-handlers.js';
import { Replayer } from './replay/replayer.js';
import type { ScenarioCatalog } from './scenarios/index.js';
import { loadRecordingIndex } from './storage/load-recordings.js';
import { isScenarioFileName } from './storage/scenario-files.js';
import { loadScenarioCatalog } from './storage/load-catalog.js';
import type { Bundle } from './bundle/format.js';
import { readBundleFile } from './storage/bundle-file.js';

export { loadScenarioCatalog } from './storage/load-catalog.js';
export type { Bundle } from './bundle/format.js';
export { RecordingError } from './errors.js';
export type { NamedRecording, Recording } from './normalise/index.js';
export type { ReplayHandlerOptions } from './msw/replay-handlers.js';
export { Replayer, type MatchMode } from './replay/replayer.js';
export { MATCH_HEADER, RECORDING_HEADER } from './routes/answer-headers.js';

/** What {@link loadScenario} returns: exactly the options `createHandlers` needs to serve it. */
export interface LoadedScenario {
  /** The scenario name (the file name without `.json`). */
  scenario: string;
  /** The shipped scenarios overlaid by the files that were read (so `extends: "default"` works). */
  catalog: ScenarioCatalog;
}

/**
 * Loads one scenario from your own files, ready for `createHandlers`: `path` is a scenario file
 * (`<name>.json`, the name comes from the file) or a folder of them (then give `name`); the shipped
 * scenarios are loaded too, so a file may `extends` one of them or replace one of the same name.
 *
 * Shape: `{ scenario: string, catalog: ScenarioCatalog }`; spread it into `createHandlers`.
 *
 * @throws ScenarioError (`MV_SCENARIO_INVALID`) listing every problem (file, JSON path, rule) of every file read.
 * @throws UnknownScenarioError (`MV_SCENARIO_UNKNOWN`) when `name` is not among the loaded scenarios; lists them.
 * @throws MockvideoError (`MV_USAGE`) when `path` does not exist, or is a folder and `name` is missing.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'mockvideo';
 * import { loadScenario } from 'mockvideo/node';
 * const server = setupServer(...createHandlers(loadScenario('test/scenarios/slow-cp.json')));
 * // or: createHandlers({ ...loadScenario('test/scenarios', 'slow-cp'), baseUrl: 'https://api.example.com' })
 * @see docs/contract.md#operations and docs/contract.md: what a scenario's stubs must hold.
 */
export function loadScenario(path: string, name?: string): LoadedScenario {
  const catalog = loadScenarioCatalog(path);
  const scenario = name ?? (isScenarioFileName(path) ? basename(path, '.json') : undefined);
  if (scenario === undefined) {
    throw new MockvideoError(
      'MV_USAGE',
      `loadScenario("${path}") needs a scenario name when given a folder. Call loadScenario("${path}", "<name>") with one of: ${catalog.names.join(', ')}.`,
    );
  }
  catalog.get(scenario);
  return { scenario, catalog };
}

/**
 * MSW request handlers that replay a recording folder (as written by `mockvideo record --out DIR`),
 * or recordings already read: the same answers `mockvideo replay DIR` gives, byte for byte.
 *
 * Shapes: `source` is a folder path or `{ name, recording }[]`; `options` as for the replay engine
 * (`match: 'strict' | 'nearest'`, default `nearest`; `baseUrl`; `fallback` handlers, e.g.
 * `createHandlers({ scenario })`; `replayer` to read `replayer.unused()` afterwards; `onMiss`).
 * Every answer carries `x-mockvideo-match` (`exact`, `nearest`, `fallback`) and
 * `x-mockvideo-recording`; a request nothing answers gets a 404 near-miss report. A folder is read
 * once and indexed; its responses are kept in memory up to 8 MiB (the rest are read from their
 * files when served), so a folder of any size fits.
 *
 * @throws RecordingError (`MV_RECORDING_INVALID`) naming every corrupt or misplaced file of the folder.
 * @throws MockvideoError (`MV_USAGE`) when the folder does not exist.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createReplayHandlers } from 'mockvideo/node';
 * const server = setupServer(...createReplayHandlers('recordings/start-up', { match: 'strict' }));
 * @see docs/contract.md#common-query-parameters (what the match key keeps and drops).
 */
export function createReplayHandlers(
  source: string | readonly NamedRecording[],
  options: ReplayHandlerOptions = {},
): HttpHandler[] {
  if (typeof source !== 'string' || options.replayer)
    return createReplayHandlersFor(typeof source === 'string' ? [] : source, options);
  // What matching needs is indexed; the responses stay in their files beyond a bounded cache (8 MiB, filled while reading).
  const { index, problems } = loadRecordingIndex(source, options.policy ?? DEFAULT_POLICY, { parse: parseRecording });
  if (problems.length) throw new RecordingError(source, problems);
  return createReplayHandlersFor([], { ...options, replayer: new Replayer(index, options) });
}

/**
 * Reads a start-up bundle file (from "Download bundle" on the dashboard, `GET
 * /__mockvideo/start-ups/ID/bundle`) and checks it against the format, for `bundleHandlers` of
 * `mockvideo`.
 *
 * Shape: the {@link Bundle} (`format: 'mockvideo-bundle/1'`, `exchanges`, `verdict`, …; see docs/bundles.md).
 *
 * @throws MockvideoError (`MV_BUNDLE_INVALID`), one line naming the file and, for a broken one, the
 * field: `Failed to load the bundle qa.json at exchanges[1].answer.status: …`.
 * @example
 * import { setupServer } from 'msw/node';
 * import { bundleHandlers } from 'mockvideo';
 * import { loadBundle } from 'mockvideo/node';
 * const server = setupServer(...bundleHandlers(loadBundle('test/bundles/start-up-7.json')));
 */
export function loadBundle(file: string): Bundle {
  return readBundleFile(file);
}
