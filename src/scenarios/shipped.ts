import { ScenarioError } from '../errors.js';
import type { ScenarioCatalog } from './catalog.js';
import { parseScenario, type ParsedScenario } from './parse.js';
import { compiledShippedCatalog } from './shipped-catalog.js';
import { SHIPPED_SCENARIO_FILES } from './shipped.generated.js';

let parsed: ParsedScenario[] | undefined;
let catalog: ScenarioCatalog | undefined;

/**
 * The scenarios shipped with mockvideo (`scenarios/*.json`, embedded at build time), parsed.
 * Their sources read `scenarios/<name>.json`.
 * @throws ScenarioError if a shipped file is invalid (a build that let one through is broken).
 */
export function shippedScenarios(): readonly ParsedScenario[] {
  if (!parsed) {
    const results = Object.entries(SHIPPED_SCENARIO_FILES).map(([name, value]) => parseScenario(name, value, `scenarios/${name}.json`));
    const problems = results.flatMap((r) => (r.ok ? [] : r.problems));
    if (problems.length) throw new ScenarioError(problems);
    parsed = results.map((r) => (r as { scenario: ParsedScenario }).scenario);
  }
  return parsed;
}

/**
 * The catalog of the shipped scenarios, built once from the form compiled at build time
 * ({@link compiledShippedCatalog}): nothing is parsed or validated, so nothing here calls zod, and a
 * bundle of `createHandlers` (tree-shaken) carries neither zod nor the scenario parser.
 * Throws nothing (a shipped scenario that fails validation fails the build).
 */
export function shippedCatalog(): ScenarioCatalog {
  catalog ??= compiledShippedCatalog();
  return catalog;
}
