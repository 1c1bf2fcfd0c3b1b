import type { OperationName } from '../contract/core.js';
import { faultHits, type Fault } from '../faults/fault.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { stubMatches, type CompiledStub, type PreparedResponse } from '../scenarios/compile.js';

/** What a scenario answers for one request: the prepared response, or no stub matched. */
export type StubOutcome =
  | { matched: true; response: PreparedResponse; fault?: Fault }
  | { matched: false; stubs: readonly CompiledStub[] };

/**
 * Answers requests from compiled scenarios: picks the first stub of the operation whose `when`
 * matches the query, and for a sequence stub the next response in order (the last one repeats).
 *
 * Holds the sequence counters, one per scenario, operation and stub; nothing else is mutable.
 * Pure of I/O, so it runs in any runtime.
 */
export class ScenarioResponder {
  #catalog: ScenarioCatalog;
  readonly #served = new Map<string, number>();

  constructor(catalog: ScenarioCatalog) {
    this.#catalog = catalog;
  }

  /** The scenarios it answers from. */
  get catalog(): ScenarioCatalog {
    return this.#catalog;
  }

  /** Answers from `catalog` from the next request on (a reload); every sequence starts again. */
  replaceCatalog(catalog: ScenarioCatalog): void {
    this.#catalog = catalog;
    this.#served.clear();
  }

  /**
   * The answer of scenario `scenario` to a GET of `operation` with query `query` (parsed params, or
   * the raw query without `?`, parsed only when a stub has a `when` condition to check).
   * @throws UnknownScenarioError when the scenario is not in the catalog.
   */
  respond(scenario: string, operation: OperationName, query: URLSearchParams | string): StubOutcome {
    const compiled = this.#catalog.get(scenario);
    const stubs = compiled.operations[operation];
    let params = typeof query === 'string' ? undefined : query;
    let index = -1;
    for (let i = 0; i < stubs.length; i++) {
      const stub = stubs[i]!;
      if (stub.query.length === 0 || stubMatches(stub, (params ??= new URLSearchParams(query)))) {
        index = i;
        break;
      }
    }
    if (index < 0) return { matched: false, stubs };
    const { responses } = stubs[index]!;
    const key = `${scenario}\u0000${operation}\u0000${index}`;
    let response = responses[0]!;
    if (responses.length > 1) {
      const served = this.#served.get(key) ?? 0;
      this.#served.set(key, served + 1);
      response = responses[Math.min(served, responses.length - 1)]!;
    }
    // The stub's own fault wins over the scenario's `faults` overlay.
    const fault = response.fault ?? compiled.faults[operation];
    if (!fault) return { matched: true, response };
    // A fault with a rate hits a deterministic share of the requests it applies to.
    const faultKey = response.fault ? `${key}\u0000${responses.indexOf(response)}\u0000fault` : `${scenario}\u0000${operation}\u0000overlay`;
    const seen = this.#served.get(faultKey) ?? 0;
    this.#served.set(faultKey, seen + 1);
    return faultHits(fault, seen) ? { matched: true, response, fault } : { matched: true, response };
  }

  /** Starts every sequence (and fault rate count) from the start again; for one scenario, or all. */
  resetSequences(scenario?: string): void {
    if (scenario === undefined) return this.#served.clear();
    for (const key of this.#served.keys()) if (key.startsWith(`${scenario}\u0000`)) this.#served.delete(key);
  }
}
