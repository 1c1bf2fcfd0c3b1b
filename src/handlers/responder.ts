import type { OperationName } from '../contract/index.js';
import { stubMatches, type CompiledStub, type PreparedResponse, type ScenarioCatalog } from '../scenarios/index.js';

/** What a scenario answers for one request: the prepared response, or no stub matched. */
export type StubOutcome =
  | { matched: true; response: PreparedResponse }
  | { matched: false; stubs: readonly CompiledStub[] };

/**
 * Answers requests from compiled scenarios: picks the first stub of the operation whose `when`
 * matches the query, and for a sequence stub the next response in order (the last one repeats).
 *
 * Holds the sequence counters, one per scenario, operation and stub; nothing else is mutable.
 * Pure of I/O, so it runs in any runtime.
 */
export class ScenarioResponder {
  readonly catalog: ScenarioCatalog;
  readonly #served = new Map<string, number>();

  constructor(catalog: ScenarioCatalog) {
    this.catalog = catalog;
  }

  /**
   * The answer of scenario `scenario` to a GET of `operation` with query `query`.
   * @throws UnknownScenarioError when the scenario is not in the catalog.
   */
  respond(scenario: string, operation: OperationName, query: URLSearchParams): StubOutcome {
    const stubs = this.catalog.get(scenario).operations[operation];
    const index = stubs.findIndex((stub) => stubMatches(stub, query));
    if (index < 0) return { matched: false, stubs };
    const { responses } = stubs[index]!;
    if (responses.length === 1) return { matched: true, response: responses[0]! };
    const key = `${scenario}\u0000${operation}\u0000${index}`;
    const served = this.#served.get(key) ?? 0;
    this.#served.set(key, served + 1);
    return { matched: true, response: responses[Math.min(served, responses.length - 1)]! };
  }

  /** Starts every sequence from its first response again. */
  resetSequences(): void {
    this.#served.clear();
  }
}
