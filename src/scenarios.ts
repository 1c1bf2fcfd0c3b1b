/**
 * `mockvideo/scenarios`: scenario files as data, any runtime. `parseScenario` checks a scenario
 * file's parsed JSON and names each problem by its JSON path; `buildCatalog` resolves `extends` and
 * compiles parsed scenarios into the catalog `createHandlers({ catalog })` serves; `shippedScenarios`
 * are the shipped ones, parsed. Loads zod (the schemas of the scenario format), which the main entry
 * `mockvideo` never does, so that `import 'mockvideo'` stays light in every test file (issue 31).
 * Node code reads scenario folders with `loadScenarioCatalog` of `mockvideo/node` instead.
 *
 * @example
 * import { createHandlers } from 'mockvideo';
 * import { buildCatalog, parseScenario, shippedScenarios } from 'mockvideo/scenarios';
 * const mine = parseScenario('empty-feed', { extends: 'default', operations: { 'localplay/recomm': { data: [] } } }, 'empty-feed.json');
 * if (!mine.ok) throw new Error(mine.problems.map((p) => p.message).join('\n'));
 * const handlers = createHandlers({ catalog: buildCatalog([...shippedScenarios(), mine.scenario]), scenario: 'empty-feed' });
 * @module
 */
export { buildCatalog, type CompiledScenario } from './scenarios/catalog.js';
export type { ScenarioFile } from './scenarios/format.js';
export { parseScenario, type ParsedScenario, type ParseResult } from './scenarios/parse.js';
export { shippedScenarios } from './scenarios/shipped.js';
