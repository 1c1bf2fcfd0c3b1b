import { ScenarioError } from '../errors.js';
import { checkScenarios, type ScenarioCatalog } from '../scenarios/catalog.js';
import { compiledShippedCatalog } from '../scenarios/shipped-catalog.js';
import { shippedScenarios } from '../scenarios/shipped.js';
import { readScenarioFiles } from './read-scenario-files.js';
import { scenarioFilesToParse } from './scenario-files.js';

/**
 * The catalog a server runs on: the shipped scenarios, overlaid by the scenario files of `dir`
 * (a file of the same name replaces the shipped one; others add to them and may extend shipped ones).
 * `dir` defaults to the package's own `scenarios/` folder, so an edit there takes effect on restart;
 * files there that are unchanged from the shipped ones are not parsed twice. Without any other file
 * the catalog is the one compiled at build time ({@link compiledShippedCatalog}): nothing is parsed.
 * This module loads the scenario parser (and zod); `loadServeCatalog` of `serve-catalog.ts` gives the
 * same catalog and loads it only when there are files to parse.
 *
 * @throws ScenarioError listing every problem of every file when any is invalid.
 * @throws MockvideoError (`MV_USAGE`) when `dir` was given and does not exist.
 */
export function loadScenarioCatalog(dir?: string): ScenarioCatalog {
  const paths = scenarioFilesToParse(dir);
  if (paths.length === 0) return compiledShippedCatalog();
  const files = readScenarioFiles(paths);
  const { catalog, problems } = checkScenarios([...shippedScenarios(), ...files.scenarios], files.broken);
  const all = [...files.problems, ...problems];
  if (all.length) throw new ScenarioError(all);
  return catalog;
}
