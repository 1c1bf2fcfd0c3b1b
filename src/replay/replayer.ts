import type { OperationName } from '../contract/core.js';
import { routeOf } from '../normalise/path.js';
import {
  DEFAULT_POLICY,
  matchKeyOf,
  queryMultimap,
  queryValues,
  splitQuery,
  type NamedRecording,
  type NormalisationPolicy,
  type QueryValues,
} from '../normalise/index.js';
import { closest, nearMissReport, type Difference, type NearMissReport } from './near-miss.js';
import { RecordingIndex, type IndexedRecording } from './recording-index.js';
import type { RecordedResponse } from './recording-source.js';
import type { LatencySetting } from '../latency/latency.js';
import { ClientStates, clientOf } from '../state/client-state.js';

/** The prefix of the replayer's counters in its `ClientStates` (a scenario's are `<scenario>\u0000…`). */
const SEQUENCE_PREFIX = 'replay\u0000';

/** The key of the sequence `entries` (the recordings of one match key) in a client's counters. */
function counterOf(entries: readonly IndexedRecording[]): string {
  return `${SEQUENCE_PREFIX}${entries[0]!.name}`;
}

/** How a miss of the exact key is answered: `strict` explains it; `nearest` serves the closest recording of the same operation. */
export type MatchMode = 'strict' | 'nearest';

/** What the replayer makes of one request. */
export type ReplayOutcome =
  | { kind: 'exact'; entry: IndexedRecording }
  | { kind: 'nearest'; entry: IndexedRecording; differences: Difference[] }
  | { kind: 'miss'; report: NearMissReport }
  | { kind: 'not-operation' };

/** Options of {@link Replayer}. */
export interface ReplayerOptions {
  /** Default `nearest`. */
  match?: MatchMode;
  /** Default {@link DEFAULT_POLICY}; ignored when the replayer is given a {@link RecordingIndex} (it has its own). */
  policy?: NormalisationPolicy;
  /** Where sequences are counted (per client by default; share a server's to reset both at once). */
  state?: ClientStates;
  /** How recorded latencies are served (`--latency`); default `none`: at once. */
  latency?: LatencySetting;
}

/**
 * The replay engine: finds the recording of a request (exact key first; then, in `nearest` mode,
 * the closest recording of the same operation), serves several recordings of one key in recorded order with the last one
 * repeating (per client by default: see `ClientStates`), and remembers which recordings were used. Pure of I/O: runs in any runtime; the
 * responses of recordings indexed by reference come from the index's `RecordingSource`.
 *
 * @example
 * const replayer = new Replayer(recordings, { match: 'strict' });
 * const outcome = replayer.find('GET', '/api/g1/meta/cp', '?_region=IN'); // { kind: 'exact', entry }
 * if (outcome.kind === 'exact') await replayer.response(outcome.entry); // { status, headers, body }
 */
export class Replayer {
  #index: RecordingIndex;
  readonly match: MatchMode;
  /** How many times each sequence (the recordings of one key, known by the name of its first) was served, per client. */
  readonly #state: ClientStates;
  /** How recorded latencies are served (read by the routes: the answer's delay, see `RecordingAnswers.delayMs`). */
  latency: LatencySetting;
  readonly #used = new Set<string>();
  /** The responses being read from the source now, by recording name (see `response`). */
  #reading = new Map<string, Promise<RecordedResponse>>();

  /** `recordings`: recordings in memory, or an index built beforehand (e.g. of a recording folder, responses read when served). */
  constructor(recordings: readonly NamedRecording[] | RecordingIndex, options: ReplayerOptions = {}) {
    this.#index =
      recordings instanceof RecordingIndex
        ? recordings
        : new RecordingIndex(recordings, options.policy ?? DEFAULT_POLICY);
    this.match = options.match ?? 'nearest';
    this.#state = options.state ?? new ClientStates();
    this.latency = options.latency ?? 'none';
  }
  /** The recordings it answers from, indexed by match key. */
  get index(): RecordingIndex {
    return this.#index;
  }

  /**
   * Answers from `recordings` from the next request on (a reload of the folder); sequences and the
   * unused list start again. Recordings in memory are indexed under the current policy; an index
   * is used as it is.
   */
  replaceRecordings(recordings: readonly NamedRecording[] | RecordingIndex): void {
    this.#index =
      recordings instanceof RecordingIndex ? recordings : new RecordingIndex(recordings, this.#index.policy);
    // Reads under way belong to the old index (their callers still get them).
    this.#reading = new Map();
    this.#state.forget(SEQUENCE_PREFIX);
    this.#used.clear();
  }

  /**
   * The recording for one request: `pathname` is routed by the one path rule the server uses
   * (`routeOf`: `/api/g1/./meta/cp` and `/scenarios/gallery/api/g1/meta/cp` are `meta/cp`); `search`
   * is the raw query string (with or without `?`). A miss changes nothing (no sequence, no used
   * list). `address`: the connection's, which names the client of a query without `_sdevid` and
   * `_anoyid` (see `clientOf`; sequences advance per client unless the state is `global`).
   */
  find(
    method: string,
    pathname: string,
    search: string,
    mode: MatchMode = this.match,
    address?: string,
  ): ReplayOutcome {
    const route = routeOf(pathname);
    if (route.kind !== 'operation') return { kind: 'not-operation' };
    return this.findOfOperation(method, route.operation, search, mode, address);
  }

  /**
   * {@link find} for a request whose operation is known (`meta/cp`), not read from its path;
   * `values`: the query's decoded values when the caller has them (see `queryValues`).
   */
  findOfOperation(
    method: string,
    operation: OperationName,
    search: string,
    mode: MatchMode = this.match,
    address?: string,
    values: QueryValues = queryValues(search),
  ): Exclude<ReplayOutcome, { kind: 'not-operation' }> {
    method = method.toUpperCase();
    // HEAD is answered like GET (the host drops the body).
    if (method === 'HEAD') method = 'GET';
    const exact = this.#index.find(method, operation, values);
    if (exact) return { kind: 'exact', entry: this.#next(exact, search, address) };
    const pairs = splitQuery(search);
    const query = queryMultimap(pairs, this.#index.policy);
    const [best] = mode === 'nearest' ? closest(this.#index, operation, query, 1) : [];
    if (best) {
      const entry = this.#next(this.#index.sequenceOf(best.entry), search, address);
      return { kind: 'nearest', entry, differences: best.differences };
    }
    const key = matchKeyOf(method, operation, query);
    return {
      kind: 'miss',
      report: nearMissReport(this.#index, { method, operation, key, query, pairs }, this.#index.policy),
    };
  }

  /**
   * The response of a recording `find` returned: from memory, or read from the index's source.
   * Requests for one recording while it is being read share that read (50 clients asking for a
   * recording beyond the source's cache cause one file read, not 50).
   * @throws RecordingUnavailableError when its file cannot be read any more (removed or broken since it was indexed).
   */
  response(entry: IndexedRecording): RecordedResponse | Promise<RecordedResponse> {
    const pending = this.#reading.get(entry.name);
    if (pending) return pending;
    const response = this.#index.response(entry);
    if (!(response instanceof Promise)) return response;
    const reading = this.#reading;
    reading.set(entry.name, response);
    const done = () => {
      if (reading.get(entry.name) === response) reading.delete(entry.name);
    };
    response.then(done, done);
    return response;
  }

  /**
   * The next recording of the sequence `entries` for this client (its counter: {@link counterOf}).
   * An index without sequences counts nothing, as a scenario without them: its requests pay for
   * no client. With the one-pass query (`queryValues`), replay of 10 went from 1.41× to 1.63× talkback
   * in `npm run bench` (27 November 2026, docs/performance.md).
   */
  #next(entries: readonly IndexedRecording[], search: string, address: string | undefined): IndexedRecording {
    if (!this.#index.hasSequences) {
      this.#used.add(entries[0]!.name);
      return entries[0]!;
    }
    const counter = counterOf(entries);
    const counters = this.#state.counters(
      this.#state.scope === 'global' ? '' : clientOf(search.startsWith('?') ? search.slice(1) : search, address),
      entries[0]!.operation,
    );
    const served = counters.get(counter) ?? 0;
    counters.set(counter, served + 1);
    const entry = entries[Math.min(served, entries.length - 1)]!;
    this.#used.add(entry.name);
    return entry;
  }

  /** Adds a recording held in memory (e.g. one just recorded) and counts it as used. */
  add(named: NamedRecording): void {
    this.#index.add(named);
    this.#used.add(named.name);
  }

  /** The names of the recordings never served, in the order given. */
  unused(): string[] {
    return [...this.#index.names()].filter((name) => !this.#used.has(name));
  }

  /** Starts every sequence from its first recording again, for every client. */
  resetSequences(): void {
    this.#state.forget(SEQUENCE_PREFIX);
  }
}
