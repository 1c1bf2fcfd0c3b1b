import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { compiledShippedCatalog } from '../scenarios/shipped-catalog.js';
import { scenarioFilesToParse } from './scenario-files.js';

/**
 * The same catalog as `loadScenarioCatalog(dir)` (the shipped scenarios overlaid by the scenario
 * files of `dir`, default the package's `scenarios/` folder), for `serve` and `mockvideo scenarios`:
 * when no file needs parsing it is the catalog compiled at build time, and neither the scenario
 * parser nor zod is loaded; otherwise `load-catalog.js` is loaded and parses the files.
 *
 * @throws ScenarioError (rejects) listing every problem of every file when any is invalid.
 * @throws MockvideoError (`MV_USAGE`, rejects) when `dir` was given and does not exist.
 */
export async function loadServeCatalog(dir?: string): Promise<ScenarioCatalog> {
  if (scenarioFilesToParse(dir).length === 0) return compiledShippedCatalog();
  const { loadScenarioCatalog } = await import('./load-catalog.js');
  return loadScenarioCatalog(dir);
}
