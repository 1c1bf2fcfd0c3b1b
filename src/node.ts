/**
 * `mockvideo/node`: the Node entry. Reads scenario files from folders (and, with them, serves your
 * own scenarios through `createHandlers` of `mockvideo`). Never bundled for browsers: the exports
 * map answers `"browser": null` for it.
 * @module
 */
import { basename } from 'node:path';
import { MockvideoError } from './errors.js';
import type { ScenarioCatalog } from './scenarios/index.js';
import { isScenarioFileName } from './storage/scenario-files.js';
import { loadScenarioCatalog } from './storage/load-catalog.js';

export { loadScenarioCatalog } from './storage/load-catalog.js';

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
 * @see seed "Endpoints" → "Operations" and "Resources and their fields": what a scenario's stubs must hold.
 */
export function loadScenario(path: string, name?: string): LoadedScenario {
  const catalog = loadScenarioCatalog(path);
  const scenario = name ?? (isScenarioFileName(path) ? basename(path, '.json') : undefined);
  if (scenario === undefined) {
    throw new MockvideoError('MV_USAGE', `loadScenario("${path}") needs a scenario name when given a folder. Call loadScenario("${path}", "<name>") with one of: ${catalog.names.join(', ')}.`);
  }
  catalog.get(scenario);
  return { scenario, catalog };
}
