import type { OperationName } from '../contract/operation-table.js';
import { ScenarioCatalog, type CompiledScenario } from './catalog.js';
import type { CompiledStub } from './compile.js';
import { COMPILED_SHIPPED_CATALOG } from './shipped-catalog.generated.js';

/**
 * The shipped scenarios as `scripts/compile-shipped-catalog.ts` writes them at build time: every
 * {@link CompiledScenario} of `buildCatalog(shippedScenarios())`, in catalog order, with each
 * operation's stubs given as indexes into `stubs`, which holds each distinct {@link CompiledStub}
 * once as JSON text (scenarios that extend another share its stubs).
 */
export interface CompiledShippedCatalog {
  /** Each distinct compiled stub, as `JSON.stringify(stub)`. */
  stubs: readonly string[];
  /** The compiled scenarios, with `operations` as indexes into `stubs`. */
  scenarios: ReadonlyArray<
    Omit<CompiledScenario, 'operations'> & { operations: Readonly<Record<OperationName, readonly number[]>> }
  >;
}

/**
 * The catalog of the shipped scenarios (`scenarios/*.json`), compiled at build time: the same
 * catalog as `buildCatalog(shippedScenarios())` (`shipped-catalog.test.ts` holds it), without
 * loading the scenario parser or validating anything at runtime. A new catalog at every call, with
 * objects of its own; inside it, each distinct stub is parsed once (about 0.4 ms for the catalog, was
 * 2.4 ms parsing each scenario's copy) and shared by the scenarios that have it, as compiling shares
 * the stubs a scenario inherits.
 */
export function compiledShippedCatalog(): ScenarioCatalog {
  const stubs: Array<CompiledStub | undefined> = [];
  const stubAt = (i: number) => (stubs[i] ??= JSON.parse(COMPILED_SHIPPED_CATALOG.stubs[i]!) as CompiledStub);
  return new ScenarioCatalog(
    COMPILED_SHIPPED_CATALOG.scenarios.map((scenario) => ({
      ...scenario,
      operations: Object.fromEntries(
        Object.entries(scenario.operations).map(([op, indexes]) => [op, indexes.map(stubAt)]),
      ) as unknown as CompiledScenario['operations'],
    })),
  );
}

let catalog: ScenarioCatalog | undefined;

/**
 * The catalog of the shipped scenarios, built once from the form compiled at build time
 * ({@link compiledShippedCatalog}): nothing is parsed or validated, so nothing here calls zod, and
 * neither a bundle of `createHandlers` nor `import 'mockvideo'` loads zod or the scenario parser.
 * Throws nothing (a shipped scenario that fails validation fails the build).
 */
export function shippedCatalog(): ScenarioCatalog {
  catalog ??= compiledShippedCatalog();
  return catalog;
}
