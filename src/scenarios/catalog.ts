import { OPERATION_NAMES, type OperationName } from '../contract/core.js';
import { extendsChainProblem } from './limits.js';
import { ScenarioError, UnknownScenarioError, didYouMean, formatJsonPath, type ScenarioProblem } from '../errors.js';
import { compileStub, type CompiledStub } from './compile.js';
import { consistencyProblems, eachData, type OperationOrigin } from './consistency.js';
import type { Fault } from '../faults/fault.js';
import type { ScenarioFaults, Stub } from './format.js';
import { inheritStubData } from './inherit-data.js';
import type { ParsedScenario } from './parse.js';

/** A scenario file that failed to parse: its name, where it is, and the scenario it names in `extends`, if any. */
export interface BrokenScenario {
  name: string;
  source: string;
  extends?: string;
}

/** A scenario with `extends` resolved and every operation compiled, ready to serve. */
export interface CompiledScenario {
  name: string;
  description: string;
  source: string;
  /** The chain of scenarios it extends, nearest first (empty for a root scenario). */
  ancestry: readonly string[];
  /** Each of the six operations' stubs, tried in order; an operation inherited unchanged is its parent's very array (shared, never changed). */
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
  /** By name, in {@link names} order. */
  readonly #scenarios: ReadonlyMap<string, CompiledScenario>;
  constructor(scenarios: Iterable<CompiledScenario>) {
    // Code-unit order, not `localeCompare`: its first call sets up ICU collation, about 8 ms of every
    // `serve` start (the start line lists the names).
    const byName = [...scenarios].map((s) => [s.name, s] as const);
    const rank = (name: string) => (name === 'default' ? '' : name);
    this.#scenarios = new Map(byName.sort(([a], [b]) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0)));
  }
  /** The scenario names, `default` first, then in code-unit order. */
  get names(): string[] {
    return [...this.#scenarios.keys()];
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
    return [...this.#scenarios.values()];
  }
}

interface Resolution {
  operations: Partial<Record<OperationName, OperationOrigin>>;
  ancestry: string[];
  faults: ScenarioFaults;
  state?: 'client' | 'global';
}

/**
 * Resolves `extends`, completes the object data of stubs from their parent (see `inheritData`:
 * objects merged, arrays replaced) and checks it, checks cross-operation consistency and compiles
 * every scenario. Later entries replace earlier ones of the same name (so a user's folder can
 * override a shipped scenario). A scenario that extends an invalid one is itself invalid.
 *
 * `broken` are the files that failed to parse (their problems reported already): their names count
 * as known, so a scenario extending one is told that it has problems, and an unknown `extends` of
 * theirs is reported in the same run as their other problems.
 *
 * @returns the catalog of the valid scenarios, and every problem found.
 */
export function checkScenarios(
  parsed: readonly ParsedScenario[],
  broken: readonly BrokenScenario[] = [],
): { catalog: ScenarioCatalog; problems: ScenarioProblem[] } {
  const byName = new Map(parsed.map((s) => [s.name, s]));
  const problems: ScenarioProblem[] = [];
  const brokenNames = new Set(broken.map((b) => b.name).filter((name) => !byName.has(name)));
  const knownNames = () => [...new Set([...byName.keys(), ...brokenNames])].sort();
  const unknown = (name: string) =>
    `extends unknown scenario "${name}"; known scenarios: ${knownNames().join(', ')}.${didYouMean(name, knownNames())}`;
  for (const b of broken)
    if (b.extends !== undefined && !byName.has(b.extends) && !brokenNames.has(b.extends))
      problems.push({ source: b.source, path: 'extends', message: unknown(b.extends) });
  const resolved = new Map<string, Resolution | undefined>();
  const visiting: string[] = [];

  const chains = extendsChainProblem(parsed);
  if (chains.problem) problems.push(chains.problem);
  for (const name of chains.tooLong) resolved.set(name, undefined);

  const resolve = (name: string): Resolution | undefined => {
    if (resolved.has(name)) return resolved.get(name);
    const scenario = byName.get(name)!;
    const reject = (found: readonly ScenarioProblem[]) => {
      problems.push(...found);
      resolved.set(name, undefined);
      return undefined;
    };
    const fail = (path: string, message: string) => reject([{ source: scenario.source, path, message }]);
    if (visiting.includes(name))
      return fail(
        'extends',
        `scenarios extend each other in a cycle: ${[...visiting.slice(visiting.indexOf(name)), name].join(' → ')}`,
      );
    let inherited: Resolution = { operations: {}, ancestry: [], faults: {} };
    if (scenario.extends !== undefined) {
      const broken = `extends scenario "${scenario.extends}", which has problems (listed with its file)`;
      if (brokenNames.has(scenario.extends)) return fail('extends', broken);
      if (!byName.has(scenario.extends)) return fail('extends', unknown(scenario.extends));
      visiting.push(name);
      const parent = resolve(scenario.extends);
      visiting.pop();
      if (resolved.has(name)) return undefined; // failed inside a cycle
      if (!parent) return fail('extends', broken);
      inherited = { ...parent, ancestry: [scenario.extends, ...parent.ancestry] };
    }
    const operations = { ...inherited.operations };
    const dataProblems: ScenarioProblem[] = [];
    for (const [op, given] of Object.entries(scenario.operations) as Array<[OperationName, Stub[]]>) {
      const origin: OperationOrigin = { source: scenario.source, listed: scenario.listed.has(op), stubs: given };
      if (scenario.inheritsData?.has(op)) {
        origin.stubs = inheritStubData(given, inherited.operations[op]?.stubs);
        eachData(origin, op, (data, at, source) => {
          for (const issue of scenario.checkData?.(op, data) ?? []) {
            const missing =
              issue.path.length === 1 && /received undefined/.test(issue.message)
                ? ` (not given here, nor by "${scenario.extends}")`
                : '';
            dataProblems.push({
              source,
              path: formatJsonPath([...at, ...issue.path]),
              message: `${issue.message}${missing}`,
            });
          }
        });
      }
      operations[op] = origin;
    }
    if (dataProblems.length) return reject(dataProblems);
    const missing = OPERATION_NAMES.filter((op) => !operations[op]);
    if (missing.length) {
      return fail(
        'operations',
        `operations ${missing.join(', ')} are not defined and not inherited; define them or set "extends" (e.g. "default")`,
      );
    }
    const inconsistent = consistencyProblems(operations);
    if (inconsistent.length)
      return reject(
        inconsistent.map((p) =>
          p.source === scenario.source
            ? p
            : { ...p, message: `${p.message} (in scenario "${name}", which extends it)` },
        ),
      );
    const state = scenario.state ?? inherited.state;
    const resolution: Resolution = {
      operations,
      ancestry: inherited.ancestry,
      faults: { ...inherited.faults, ...scenario.faults },
      ...(state ? { state } : {}),
    };
    resolved.set(name, resolution);
    return resolution;
  };

  const compiled: CompiledScenario[] = [];
  // An operation a scenario inherits unchanged is its parent's very stubs: compiled once and shared,
  // so 50 scenarios that extend `default` hold one copy of its answers, not 50 (less to keep, less
  // for the garbage collector to walk). Answers stay per scenario: see `preparedAnswer`.
  const compiledStubs = new Map<readonly Stub[], CompiledStub[]>();
  const compileStubs = (stubs: readonly Stub[]) => {
    let made = compiledStubs.get(stubs);
    if (!made) compiledStubs.set(stubs, (made = stubs.map(compileStub)));
    return made;
  };
  for (const scenario of byName.values()) {
    const resolution = resolve(scenario.name);
    if (!resolution) continue;
    const operations = Object.fromEntries(
      OPERATION_NAMES.map((op) => [op, compileStubs(resolution.operations[op]!.stubs)]),
    ) as Record<OperationName, CompiledStub[]>;
    const faults: Partial<Record<OperationName, Fault>> = {};
    for (const op of OPERATION_NAMES) {
      const fault = resolution.faults[op] ?? resolution.faults['*'];
      if (fault) faults[op] = fault;
    }
    compiled.push({
      name: scenario.name,
      description: scenario.description,
      source: scenario.source,
      ancestry: resolution.ancestry,
      operations,
      faults,
      ...(resolution.state ? { state: resolution.state } : {}),
    });
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
