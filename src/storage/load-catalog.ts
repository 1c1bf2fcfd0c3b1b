import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ScenarioError } from '../errors.js';
import { checkScenarios, shippedScenarios, type ScenarioCatalog } from '../scenarios/index.js';
import { compiledShippedCatalog } from '../scenarios/shipped-catalog.js';
import { SHIPPED_SCENARIO_FILES } from '../scenarios/shipped.generated.js';
import { SHIPPED_SCENARIOS_DIR, readScenarioFiles, scenarioFilesAt } from './scenario-files.js';

/** True when `file` holds exactly the embedded copy of the shipped scenario of its name (so parsing it again would give the same scenario). */
function sameAsShipped(file: string): boolean {
  const shipped = SHIPPED_SCENARIO_FILES[basename(file, '.json')];
  if (shipped === undefined) return false;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete value.$schema;
    return JSON.stringify(value) === JSON.stringify(shipped);
  } catch {
    return false;
  }
}

/**
 * The catalog a server runs on: the shipped scenarios, overlaid by the scenario files of `dir`
 * (a file of the same name replaces the shipped one; others add to them and may extend shipped ones).
 * `dir` defaults to the package's own `scenarios/` folder, so an edit there takes effect on restart;
 * files there that are unchanged from the shipped ones are not parsed twice. Without any other file
 * the catalog is the one compiled at build time ({@link compiledShippedCatalog}): nothing is parsed.
 *
 * @throws ScenarioError listing every problem of every file when any is invalid.
 * @throws MockvideoError (`MV_USAGE`) when `dir` was given and does not exist.
 */
export function loadScenarioCatalog(dir?: string): ScenarioCatalog {
  const folder = dir ?? (existsSync(SHIPPED_SCENARIOS_DIR) ? SHIPPED_SCENARIOS_DIR : undefined);
  let paths = folder ? scenarioFilesAt([folder]) : [];
  if (folder !== undefined && resolve(folder) === SHIPPED_SCENARIOS_DIR) paths = paths.filter((file) => !sameAsShipped(file));
  if (paths.length === 0) return compiledShippedCatalog();
  const files = readScenarioFiles(paths);
  const { catalog, problems } = checkScenarios([...shippedScenarios(), ...files.scenarios]);
  const all = [...files.problems, ...problems];
  if (all.length) throw new ScenarioError(all);
  return catalog;
}
