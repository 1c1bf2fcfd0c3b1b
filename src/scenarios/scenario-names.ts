import { SCENARIO_NAMES, type ScenarioName } from './scenario-names.generated.js';

export type { ScenarioName } from './scenario-names.generated.js';

/**
 * The names of the scenarios shipped with mockvideo (`scenarios/*.json`, known at build time),
 * sorted with `default` first: the values `createHandlers({ scenario })` accepts without a catalog
 * of your own.
 *
 * Shape: `readonly ScenarioName[]`, frozen, e.g. `['default', 'connection-reset', …, 'slow-network']`.
 * Throws nothing.
 *
 * @example
 * import { createHandlers, scenarioNames } from 'mockvideo';
 * it.each(scenarioNames)('renders with scenario %s', async (scenario) => {
 *   server.use(...createHandlers({ scenario }));
 * });
 * @see {@link isScenarioName} to narrow a `string` (an environment variable, a CLI flag) first.
 */
export const scenarioNames: readonly ScenarioName[] = SCENARIO_NAMES;

const NAMES: ReadonlySet<string> = /* @__PURE__ */ new Set(SCENARIO_NAMES);

/**
 * True when `value` names a shipped scenario; narrows it to {@link ScenarioName}, so a name read
 * at run time can go to `createHandlers({ scenario })`. Throws nothing.
 *
 * @example
 * const scenario = process.env.SCENARIO ?? 'default';
 * if (!isScenarioName(scenario)) throw new Error(`SCENARIO: no such scenario; one of ${scenarioNames.join(', ')}`);
 * const server = setupServer(...createHandlers({ scenario }));
 */
export function isScenarioName(value: unknown): value is ScenarioName {
  return typeof value === 'string' && NAMES.has(value);
}
