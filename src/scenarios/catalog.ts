import { OPERATION_NAMES, type OperationName } from '../contract/core.js';
import { ScenarioError, UnknownScenarioError, type ScenarioProblem } from '../errors.js';
import { compileStub, type CompiledStub } from './compile.js';
import { consistencyProblems, type OperationOrigin } from './consistency.js';
import type { Fault } from '../faults/fault.js';
import type { ScenarioFaults, Stub } from './format.js';
import type { ParsedScenario } from './parse.js';

/** A scenario with `extends` resolved and every operation compiled, ready to serve. */
export interface CompiledScenario {
  name: string;
  description: string;
  source: string;
  /** The chain of scenarios it extends, nearest first (empty for a root scenario). */
  ancestry: readonly string[];
  /** Each of the six operations' stubs, tried in order. */
  operations: Readonly<Record<OperationName, readonly CompiledStub[]>>;
  /** The fault each operation's answers get when their stub has none (from `faults`, `*` resolved). */
  faults: Readonly<Partial<Record<OperationName, Fault>>>;
  /** The scenario setting `"state"` (its own or inherited); `undefined`: the server's `--state`. */
  state?: 'client' | 'global';
}

/**
 * A set of compiled scenarios by name. Built by {@link buildCatalog}; immutable.
 */
export class ScenarioCatalog {
  readonly #scenarios: ReadonlyMap<string, CompiledScenario>;
  constructor(scenarios: Iterable<CompiledScenario>) {
    this.#scenarios = new Map([...scenarios].map((s) => [s.name, s]));
  }
  /** The scenario names, sorted with `default` first. */
  get names(): string[] {
    return [...this.#scenarios.keys()].sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)));
  }
  /** True when `name` is loaded. */
  has(name: string): boolean {
    return this.#scenarios.has(name);
  }
  /**
   * The compiled scenario `name`.
   * @throws UnknownScenarioError listing the known names when it is not loaded.
   */
  get(name: string): CompiledScenario {
    const scenario = this.#scenarios.get(name);
    if (!scenario) throw new UnknownScenarioError(name, this.names);
    return scenario;
  }
  /** Every compiled scenario, in {@link names} order. */
  list(): CompiledScenario[] {
    return this.names.map((n) => this.#scenarios.get(n)!);
  }
}

interface Resolution {
  operations: Partial<Record<OperationName, OperationOrigin>>;
  ancestry: string[];
  faults: ScenarioFaults;
  state?: 'client' | 'global';
}

/**
 * Resolves `extends`, checks cross-operation consistency and compiles every scenario. Later entries
 * replace earlier ones of the same name (so a user's folder can override a shipped scenario). A
 * scenario that extends an invalid one is itself invalid.
 *
 * @returns the catalog of the valid scenarios, and every problem found.
 */
export function checkScenarios(parsed: readonly ParsedScenario[]): { catalog: ScenarioCatalog; problems: ScenarioProblem[] } {
  const byName = new Map(parsed.map((s) => [s.name, s]));
  const problems: ScenarioProblem[] = [];
  const resolved = new Map<string, Resolution | undefined>();
  const visiting: string[] = [];

  const resolve = (name: string): Resolution | undefined => {
    if (resolved.has(name)) return resolved.get(name);
    const scenario = byName.get(name)!;
    const fail = (path: string, message: string) => {
      problems.push({ source: scenario.source, path, message });
      resolved.set(name, undefined);
      return undefined;
    };
    if (visiting.includes(name)) return fail('extends', `scenarios extend each other in a cycle: ${[...visiting.slice(visiting.indexOf(name)), name].join(' → ')}`);
    let inherited: Resolution = { operations: {}, ancestry: [], faults: {} };
    if (scenario.extends !== undefined) {
      if (!byName.has(scenario.extends)) {
        return fail('extends', `extends unknown scenario "${scenario.extends}"; known scenarios: ${[...byName.keys()].sort().join(', ')}`);
      }
      visiting.push(name);
      const parent = resolve(scenario.extends);
      visiting.pop();
      if (resolved.has(name)) return undefined; // failed inside a cycle
      if (!parent) return fail('extends', `extends scenario "${scenario.extends}", which has problems (listed with its file)`);
      inherited = { operations: parent.operations, ancestry: [scenario.extends, ...parent.ancestry], faults: parent.faults, ...(parent.state ? { state: parent.state } : {}) };
    }
    const operations = { ...inherited.operations };
    for (const [op, stubs] of Object.entries(scenario.operations) as Array<[OperationName, Stub[]]>) {
      operations[op] = { source: scenario.source, listed: scenario.listed.has(op), stubs };
    }
    const missing = OPERATION_NAMES.filter((op) => !operations[op]);
    if (missing.length) {
      return fail('operations', `operations ${missing.join(', ')} are not defined and not inherited; define them or set "extends" (e.g. "default")`);
    }
    const inconsistent = consistencyProblems(operations);
    if (inconsistent.length) {
      for (const p of inconsistent) {
        problems.push(p.source === scenario.source ? p : { ...p, message: `${p.message} (in scenario "${name}", which extends it)` });
      }
      resolved.set(name, undefined);
      return undefined;
    }
    const state = scenario.state ?? inherited.state;
    const resolution: Resolution = { operations, ancestry: inherited.ancestry, faults: { ...inherited.faults, ...scenario.faults }, ...(state ? { state } : {}) };
    resolved.set(name, resolution);
    return resolution;
  };

  const compiled: CompiledScenario[] = [];
  for (const scenario of byName.values()) {
    const resolution = resolve(scenario.name);
    if (!resolution) continue;
    const operations = Object.fromEntries(
      OPERATION_NAMES.map((op) => [op, resolution.operations[op]!.stubs.map(compileStub)]),
    ) as Record<OperationName, CompiledStub[]>;
    const faults: Partial<Record<OperationName, Fault>> = {};
    for (const op of OPERATION_NAMES) {
      const fault = resolution.faults[op] ?? resolution.faults['*'];
      if (fault) faults[op] = fault;
    }
    compiled.push({ name: scenario.name, description: scenario.description, source: scenario.source, ancestry: resolution.ancestry, operations, faults, ...(resolution.state ? { state: resolution.state } : {}) });
  }
  return { catalog: new ScenarioCatalog(compiled), problems };
}

/**
 * Like {@link checkScenarios}, but all-or-nothing.
 * @throws ScenarioError listing every problem when any scenario is invalid.
 */
export function buildCatalog(parsed: readonly ParsedScenario[]): ScenarioCatalog {
  const { catalog, problems } = checkScenarios(parsed);
  if (problems.length) throw new ScenarioError(problems);
  return catalog;
}
