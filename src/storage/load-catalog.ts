import { existsSync } from 'node:fs';
import { ScenarioError } from '../errors.js';
import { checkScenarios, shippedScenarios, type ScenarioCatalog } from '../scenarios/index.js';
import { SHIPPED_SCENARIOS_DIR, readScenarioFiles, scenarioFilesAt } from './scenario-files.js';

/**
 * The catalog a server runs on: the shipped scenarios, overlaid by the scenario files of `dir`
 * (a file of the same name replaces the shipped one; others add to them and may extend shipped ones).
 * `dir` defaults to the package's own `scenarios/` folder, so an edit there takes effect on restart.
 *
 * @throws ScenarioError listing every problem of every file when any is invalid.
 * @throws MockvideoError (`MV_USAGE`) when `dir` was given and does not exist.
 */
export function loadScenarioCatalog(dir?: string): ScenarioCatalog {
  const folder = dir ?? (existsSync(SHIPPED_SCENARIOS_DIR) ? SHIPPED_SCENARIOS_DIR : undefined);
  const files = folder ? readScenarioFiles(scenarioFilesAt([folder])) : { scenarios: [], problems: [] };
  const { catalog, problems } = checkScenarios([...shippedScenarios(), ...files.scenarios]);
  const all = [...files.problems, ...problems];
  if (all.length) throw new ScenarioError(all);
  return catalog;
}
