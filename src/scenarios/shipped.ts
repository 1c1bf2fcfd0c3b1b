import { ScenarioError } from '../errors.js';
import { parseScenario, type ParsedScenario } from './parse.js';
import { SHIPPED_SCENARIO_FILES } from './shipped.generated.js';

let parsed: ParsedScenario[] | undefined;

/**
 * The scenarios shipped with mockvideo (`scenarios/*.json`, embedded at build time), parsed.
 * Their sources read `scenarios/<name>.json`.
 * @throws ScenarioError if a shipped file is invalid (a build that let one through is broken).
 */
export function shippedScenarios(): readonly ParsedScenario[] {
  if (!parsed) {
    const results = Object.entries(SHIPPED_SCENARIO_FILES).map(([name, value]) =>
      parseScenario(name, value, `scenarios/${name}.json`),
    );
    const problems = results.flatMap((r) => (r.ok ? [] : r.problems));
    if (problems.length) throw new ScenarioError(problems);
    parsed = results.map((r) => (r as { scenario: ParsedScenario }).scenario);
  }
  return parsed;
}
