import type { OperationName } from '../contract/core.js';
import { faultHits, type Fault } from '../faults/fault.js';
import type { CompiledScenario, ScenarioCatalog } from '../scenarios/catalog.js';
import { stubMatches, type CompiledStub, type PreparedResponse } from '../scenarios/compile.js';
import { Clock } from '../clock/clock.js';
import { queryValues, type QueryValues } from '../normalise/query.js';
import { latencyDelayMs, type LatencySetting } from '../latency/latency.js';
import { ClientStates, clientOf, stepText } from '../state/client-state.js';

/** What a {@link ScenarioResponder} answers with besides its catalog; each has a default. */
export interface ResponderOptions {
  /** The counter store (default: per client, see `ClientStates`). */
  state?: ClientStates;
  /** The clock that times relative to it in scenario data read (default: real time). */
  clock?: Clock;
  /** How stub latencies are served (default `recorded`: as written). */
  latency?: LatencySetting;
}

const counting = new WeakMap<CompiledScenario, boolean>();

/** Whether answering `scenario` counts requests: it has a sequence, or a fault (a stub's or the overlay's) with a `rate`. */
function counts(scenario: CompiledScenario): boolean {
  let known = counting.get(scenario);
  if (known === undefined) {
    const rated = (fault: Fault | undefined) => fault !== undefined && (fault.rate ?? 1) < 1;
    known =
      Object.values(scenario.faults).some(rated) ||
      Object.values<readonly CompiledStub[]>(scenario.operations).some((stubs) =>
        stubs.some((stub) => stub.responses.length > 1 || stub.responses.some((r) => rated(r.fault))),
      );
    counting.set(scenario, known);
  }
  return known;
}

/** The counter key of a stub (a scenario's operation's stub number `index`), made only by requests that count. */
function stubKey(scenario: string, operation: OperationName, index: number): string {
  return `${scenario}\u0000${operation}\u0000${index}`;
}

/** What a scenario answers for one request: the prepared response, or no stub matched. */
export type StubOutcome =
  | {
      matched: true;
      response: PreparedResponse;
      fault?: Fault;
      /** For a sequence: which step (`stepText`). */ step?: string;
    }
  | { matched: false; stubs: readonly CompiledStub[] };

/**
 * Answers requests from compiled scenarios: picks the first stub of the operation whose `when`
 * matches the query, and for a sequence stub the next response in order (the last one repeats).
 *
 * Its sequence counters (one per scenario, operation and stub) are kept in `state`: per client by
 * default (see `ClientStates`); nothing else is mutable. Pure of I/O, so it runs in any runtime.
 */
export class ScenarioResponder {
  #catalog: ScenarioCatalog;
  /** The sequence and fault-rate counters, per client or for the server. */
  readonly state: ClientStates;
  /** The clock of `"{now…}"` times in scenario data. */
  readonly clock: Clock;
  /** How stub latencies are served. */
  latency: LatencySetting;

  constructor(catalog: ScenarioCatalog, options: ResponderOptions = {}) {
    this.#catalog = catalog;
    this.state = options.state ?? new ClientStates();
    this.clock = options.clock ?? new Clock();
    this.latency = options.latency ?? 'recorded';
  }

  /** How long the answer of `response` waits for its stub's `latency`, in milliseconds (0 without one). */
  latencyOf(response: PreparedResponse): number {
    return response.latency ? latencyDelayMs(response.latency, this.latency) : 0;
  }

  /** The scenarios it answers from. */
  get catalog(): ScenarioCatalog {
    return this.#catalog;
  }

  /** Answers from `catalog` from the next request on (a reload); every sequence starts again. */
  replaceCatalog(catalog: ScenarioCatalog): void {
    this.#catalog = catalog;
    this.state.reset();
  }

  /**
   * The answer of scenario `scenario` to a GET of `operation` with query `query` (the raw query
   * without `?`; `values`, its decoded parameters when the caller has them, else read from `query`
   * only when a stub has a `when` condition to check), from the client `clientOf(query, address)`
   * names (read only in `client` scope: see `ClientStates`).
   * @throws UnknownScenarioError when the scenario is not in the catalog.
   */
  respond(
    scenario: string,
    operation: OperationName,
    query: string,
    address?: string,
    values?: QueryValues,
  ): StubOutcome {
    const compiled = this.#catalog.get(scenario);
    const scope = compiled.state ?? this.state.scope;
    // A scenario without sequences or fault rates counts nothing: its requests pay for no client.
    const served = counts(compiled)
      ? this.state.counters(scope === 'global' ? '' : clientOf(query, address), operation, scope)
      : undefined;
    const stubs = compiled.operations[operation];
    let params = values;
    let index = -1;
    for (let i = 0; i < stubs.length; i++) {
      const stub = stubs[i]!;
      if (stub.query.length === 0 || stubMatches(stub, (params ??= queryValues(query)))) {
        index = i;
        break;
      }
    }
    if (index < 0) return { matched: false, stubs };
    const { responses } = stubs[index]!;
    let response = responses[0]!;
    let step: string | undefined;
    if (served && responses.length > 1) {
      const key = stubKey(scenario, operation, index);
      const count = served.get(key) ?? 0;
      served.set(key, count + 1);
      response = responses[Math.min(count, responses.length - 1)]!;
      step = stepText(count, responses.length);
    }
    // The stub's own fault wins over the scenario's `faults` overlay.
    const fault = response.fault ?? compiled.faults[operation];
    const matched =
      step === undefined ? { matched: true as const, response } : { matched: true as const, response, step };
    if (!fault) return matched;
    if (!served) return { ...matched, fault };
    // A fault with a rate hits a deterministic share of the requests it applies to.
    const faultKey = response.fault
      ? `${stubKey(scenario, operation, index)}\u0000${responses.indexOf(response)}\u0000fault`
      : `${scenario}\u0000${operation}\u0000overlay`;
    const seen = served.get(faultKey) ?? 0;
    served.set(faultKey, seen + 1);
    return faultHits(fault, seen) ? { ...matched, fault } : matched;
  }

  /**
   * Starts every sequence (and fault rate count) from the start again, of every client, or of
   * `client` alone (see `clientOf`: a device given a scenario of its own); for one scenario, or all.
   */
  resetSequences(scenario?: string, client?: string): void {
    if (scenario === undefined) return void this.state.reset(client);
    this.state.forget(`${scenario}\u0000`, client);
  }
}
