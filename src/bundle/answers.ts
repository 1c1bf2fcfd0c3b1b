/**
 * Which exchange of a bundle answers a request: the device's n-th call of an operation in its
 * start-up gets the bundle's n-th exchange of that operation, whoever the device is; a call the
 * bundle does not hold gets a near-miss report. Any runtime.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import {
  DEFAULT_POLICY,
  matchKey,
  queryMultimap,
  recordedBodyBytes,
  splitQuery,
  type NamedRecording,
  type NormalisationPolicy,
} from '../normalise/index.js';
import { nearMissReport, type NearMissReport } from '../replay/near-miss.js';
import { RecordingIndex } from '../replay/recording-index.js';
import { ClientStates, clientOf } from '../state/client-state.js';
import { exchangeName, type Bundle, type BundleExchange } from './format.js';

/** The prefix of the bundle's counters in a device's state (a scenario's are `<scenario>\u0000…`, replay's `replay\u0000…`). */
const COUNTER_PREFIX = 'bundle\u0000';

/** Options of {@link BundleAnswers}. */
export interface BundleAnswersOptions {
  /** Where each device's calls are counted (share a server's, so that a state reset starts the bundle again); default a new one. */
  state?: ClientStates;
  /** The policy of the near-miss report's match keys; default `DEFAULT_POLICY`. */
  policy?: NormalisationPolicy;
}

/** What a request gets of a bundle: an exchange (its place in `bundle.exchanges`, and which call of its operation it is), or a miss. */
export type BundleOutcome =
  | {
      kind: 'exchange';
      index: number;
      exchange: BundleExchange;
      /** The exact bytes of its answer's body (`undefined` when it had no answer), decoded once per exchange. */
      body: Uint8Array | undefined;
      call: number;
      calls: number;
    }
  | { kind: 'miss'; report: NearMissReport };

/**
 * The answers of one bundle, in its order: per device (see `clientOf`: `_sdevid`, else `_anoyid`,
 * else the address) and per operation, the k-th call of an operation gets the bundle's k-th
 * exchange of that operation, whatever the query says (a device of another model, version or
 * locale, a new token, a new `_ts`); the counts start again at the device's next start-up (see
 * `ClientStates`) and with a state reset. A call beyond the bundle's, or of an operation it never
 * called, is a miss, explained by a near-miss report against the bundle's exchanges of that
 * operation. Remembers which exchanges were answered.
 */
export class BundleAnswers {
  readonly bundle: Bundle;
  readonly #state: ClientStates;
  readonly #policy: NormalisationPolicy;
  /** The indexes of each operation's exchanges, in order. */
  readonly #byOperation = new Map<OperationName, number[]>();
  readonly #used = new Set<number>();
  /** The answers' bodies as bytes, by exchange index, decoded when first served. */
  readonly #bodies = new Map<number, Uint8Array>();
  #index: RecordingIndex | undefined;

  constructor(bundle: Bundle, options: BundleAnswersOptions = {}) {
    this.bundle = bundle;
    this.#state = options.state ?? new ClientStates();
    this.#policy = options.policy ?? DEFAULT_POLICY;
    bundle.exchanges.forEach((exchange, index) => {
      const list = this.#byOperation.get(exchange.operation) ?? [];
      list.push(index);
      this.#byOperation.set(exchange.operation, list);
    });
  }

  /**
   * The exchange that answers a request to `operation` (`query`: raw, without `?`; `address`: the
   * connection's, when known), counted as the device's next call of it; or the miss's report.
   * Call once per request.
   */
  take(method: string, operation: OperationName, query: string, address?: string): BundleOutcome {
    const counters = this.#state.counters(clientOf(query, address), operation);
    const key = `${COUNTER_PREFIX}${operation}`;
    const call = (counters.get(key) ?? 0) + 1;
    counters.set(key, call);
    const indexes = this.#byOperation.get(operation) ?? [];
    const index = indexes[call - 1];
    if (index === undefined)
      return { kind: 'miss', report: this.#miss(method, operation, query, call, indexes.length) };
    this.#used.add(index);
    const exchange = this.bundle.exchanges[index]!;
    return { kind: 'exchange', index, exchange, body: this.#body(index, exchange), call, calls: indexes.length };
  }

  #body(index: number, exchange: BundleExchange): Uint8Array | undefined {
    if (!exchange.answer) return undefined;
    let body = this.#bodies.get(index);
    if (!body) this.#bodies.set(index, (body = recordedBodyBytes(exchange.answer)));
    return body;
  }

  /** The exchanges no request got, as `exchanges[3] meta/plugin`, in order. */
  unused(): string[] {
    return this.bundle.exchanges.flatMap((x, i) => (this.#used.has(i) ? [] : [`${exchangeName(i)} ${x.operation}`]));
  }

  /** The report of the `call`-th call of `operation`, which the bundle (holding `held` of them) does not answer. */
  #miss(method: string, operation: OperationName, query: string, call: number, held: number): NearMissReport {
    const pairs = splitQuery(query);
    const report = nearMissReport(
      (this.#index ??= new RecordingIndex(this.#recordings(), this.#policy)),
      {
        method,
        operation,
        key: matchKey(method, operation, pairs, this.#policy),
        query: queryMultimap(pairs, this.#policy),
        pairs,
      },
      this.#policy,
    );
    const error = held
      ? `The bundle holds ${held} ${operation} request${held === 1 ? '' : 's'} of its start-up, all answered to this device: this is its call ${call}. The app called ${operation} more often than in the bundle; its next start-up (after a quiet gap) or POST /__mockvideo/state/reset starts the bundle again.`
      : `The bundle holds no ${operation} request: its start-up did not call ${operation}. The app does something the bundle did not see.`;
    return { ...report, error };
  }

  /** The bundle's exchanges as recordings, for the near-miss search (named by their place, `exchanges[3]`). */
  #recordings(): NamedRecording[] {
    return this.bundle.exchanges.map((x, i) => ({
      name: exchangeName(i),
      recording: {
        operation: x.operation,
        matchKey: matchKey(x.request.method, x.operation, x.request.query, this.#policy),
        recordedAt: x.time,
        request: { ...x.request, query: [...x.request.query] },
        response: { status: x.answer?.status ?? 0, headers: {}, body: '' },
      },
    }));
  }
}
