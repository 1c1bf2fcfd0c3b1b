import { VOLATILE_PARAMETERS, operationOfPath, type OperationName } from '../contract/core.js';
import { DEFAULT_POLICY, ESCAPED_NAME, decodeComponent, nameEnd, matchKeyOf, queryMultimap, splitQuery, textAt, type NamedRecording, type NormalisationPolicy, type QueryMultimap } from '../normalise/index.js';
import { closest, nearMissReport, type Difference, type NearMissReport } from './near-miss.js';
import { RecordingIndex, sequenceStep, type IndexedRecording } from './recording-index.js';
import type { RecordedResponse } from './recording-source.js';
import type { LatencySetting } from '../latency/latency.js';
import { ClientStates, clientOf } from '../state/client-state.js';

/** The prefix of the replayer's counters in its `ClientStates` (a scenario's are `<scenario>\u0000…`). */
const SEQUENCE_PREFIX = 'replay\u0000';

/** The most queries whose exact match `Replayer.find` remembers (then forgotten all at once). */
export const MAX_KNOWN_QUERIES = 1024;

/** Per policy: the names of the parameters it leaves out of matching (volatile, secret, identity). */
const ignoredNames = new WeakMap<NormalisationPolicy, readonly string[]>();

function ignoredNamesOf(policy: NormalisationPolicy): readonly string[] {
  let names = ignoredNames.get(policy);
  if (!names) ignoredNames.set(policy, (names = [...new Set([...policy.volatile, ...policy.secret, ...policy.identity])]));
  return names;
}

/** Per policy: whether it leaves every volatile parameter (`_nonce`, `_ts`) out of matching, so that a caller's query key (see `Replayer.find`) can key the exact matches. */
const ignoresVolatile = new WeakMap<NormalisationPolicy, boolean>();

function ignoresVolatileOf(policy: NormalisationPolicy): boolean {
  let ignores = ignoresVolatile.get(policy);
  if (ignores === undefined) {
    const names = ignoredNamesOf(policy);
    ignoresVolatile.set(policy, (ignores = VOLATILE_PARAMETERS.every((name) => names.includes(name))));
  }
  return ignores;
}

/** Whether `text[from, to)` is one of `names`. */
function isOneOf(text: string, from: number, to: number, names: readonly string[]): boolean {
  const length = to - from;
  for (const name of names) if (name.length === length && textAt(text, from, name)) return true;
  return false;
}

/**
 * The key under which the exact match of a request is remembered: upper-case `method`, `operation`
 * and the raw query (`search`, `?` optional) with the values of the parameters `policy` leaves out
 * of matching taken out (`_ts=` for `_ts=1718000000`), so that requests with the same match key but
 * other volatile, secret or identity values share it. `undefined` (not remembered) when a parameter
 * name is percent-encoded or has a `+` (its decoded name decides). One pass over the names by
 * offsets (values are skipped with `indexOf`); never throws.
 */
function memoKey(method: string, operation: OperationName, search: string, policy: NormalisationPolicy): string | undefined {
  const names = ignoredNamesOf(policy);
  let key = `${method} ${operation} `;
  const end = search.length;
  let kept = search.startsWith('?') ? 1 : 0;
  for (let at = kept; at <= end; ) {
    let next = search.indexOf('&', at);
    if (next < 0) next = end;
    const equals = nameEnd(search, at, next);
    if (equals === ESCAPED_NAME) return undefined;
    if (equals >= 0 && isOneOf(search, at, equals, names)) {
      key += search.slice(kept, equals + 1);
      kept = next;
    }
    at = next + 1;
  }
  return key + search.slice(kept);
}

/** The key of the sequence `entries` (the recordings of one match key) in a client's counters. */
function counterOf(entries: readonly IndexedRecording[]): string {
  return `${SEQUENCE_PREFIX}${entries[0]!.name}`;
}

/** A remembered exact match: the recordings of its key, and their key in a client's counters (made once, not per request). */
interface KnownMatch {
  entries: readonly IndexedRecording[];
  counter: string;
}

function knownMatch(entries: readonly IndexedRecording[]): KnownMatch {
  return { entries, counter: counterOf(entries) };
}

/** How a miss of the exact key is answered: `strict` explains it; `nearest` serves the closest recording of the same operation. */
export type MatchMode = 'strict' | 'nearest';

export { DIFFERENCES_HEADER, MATCH_HEADER, RECORDING_HEADER, type MatchKind } from './headers.js';

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
 * The replay engine: finds the recording of a request (exact key first, one step per query
 * parameter; then, in `nearest` mode, the closest recording of the same operation, without scanning
 * the recordings), serves several recordings of one key in recorded order with the last one
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
  /** The exact matches found by `find`, by {@link memoKey}; valid for `#knownFor` while it has `#knownSize` recordings. */
  readonly #known = new Map<string, KnownMatch>();
  /** The exact matches of GET (and HEAD) requests found by `find`, per operation, by the caller's query key; valid as `#known` is. */
  readonly #knownByQuery = new Map<OperationName, Map<string, KnownMatch>>();
  #knownByQueryCount = 0;
  #knownFor: RecordingIndex | undefined;
  #knownSize = 0;
  /** The responses being read from the source now, by recording name (see `response`). */
  #reading = new Map<string, Promise<RecordedResponse>>();

  /** `recordings`: recordings in memory, or an index built beforehand (e.g. of a recording folder, responses read when served). */
  constructor(recordings: readonly NamedRecording[] | RecordingIndex, options: ReplayerOptions = {}) {
    this.#index = recordings instanceof RecordingIndex ? recordings : new RecordingIndex(recordings, options.policy ?? DEFAULT_POLICY);
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
    this.#index = recordings instanceof RecordingIndex ? recordings : new RecordingIndex(recordings, this.#index.policy);
    // Reads under way belong to the old index (their callers still get them).
    this.#reading = new Map();
    this.#state.forget(SEQUENCE_PREFIX);
    this.#used.clear();
  }


  /**
   * The recording for one request: `search` is the raw query string (with or without `?`). Exact
   * matches of queries seen before are remembered (a client sends the same queries again and again
   * but for their volatile values); a miss changes nothing (no sequence, no used list). `address`:
   * the connection's, which names the client of a query without `_sdevid` and `_anoyid` (see
   * `clientOf`; sequences advance per client unless the state is `global`).
   *
   * `queryKey`, when the caller made one: `search` with the values of its `_nonce` and `_ts` pairs
   * taken out, `undefined` when it could not (the routes make it once per request for the findings
   * too: `volatileFreeQuery`). Two queries with the same key differ at most by those values, so
   * when the policy leaves both out of matching the exact matches are remembered by it, and the
   * query is not scanned again. Any other key gives wrong matches: pass none rather than a guess.
   */
  find(method: string, pathname: string, search: string, mode: MatchMode = this.match, address?: string, queryKey?: string): ReplayOutcome {
    const operation = operationOfPath(pathname);
    if (!operation) return { kind: 'not-operation' };
    return this.findOfOperation(method, operation, search, mode, address, queryKey);
  }

  /** {@link find} for a request whose operation is known (`meta/cp`), not read from its path. */
  findOfOperation(method: string, operation: OperationName, search: string, mode: MatchMode = this.match, address?: string, queryKey?: string): Exclude<ReplayOutcome, { kind: 'not-operation' }> {
    method = method.toUpperCase();
    // HEAD is answered like GET (the host drops the body).
    if (method === 'HEAD') method = 'GET';
    if (this.#knownFor !== this.#index || this.#knownSize !== this.#index.size) {
      this.#known.clear();
      this.#knownByQuery.clear();
      this.#knownByQueryCount = 0;
      this.#knownFor = this.#index;
      this.#knownSize = this.#index.size;
    }
    const byQuery = queryKey !== undefined && method === 'GET' && ignoresVolatileOf(this.#index.policy);
    const memo = byQuery ? undefined : memoKey(method, operation, search, this.#index.policy);
    const known = byQuery ? this.#knownByQuery.get(operation)?.get(queryKey) : memo === undefined ? undefined : this.#known.get(memo);
    if (known) return { kind: 'exact', entry: this.#next(known.entries, known.counter, search, address) };
    const pairs = splitQuery(search);
    const query = queryMultimap(pairs, this.#index.policy);
    const exact = this.#index.find(method, operation, query);
    if (exact && byQuery) {
      if (this.#knownByQueryCount >= MAX_KNOWN_QUERIES) {
        this.#knownByQuery.clear();
        this.#knownByQueryCount = 0;
      }
      let ofOperation = this.#knownByQuery.get(operation);
      if (!ofOperation) this.#knownByQuery.set(operation, (ofOperation = new Map()));
      ofOperation.set(queryKey, knownMatch(exact));
      this.#knownByQueryCount++;
    } else if (exact && memo !== undefined) {
      if (this.#known.size >= MAX_KNOWN_QUERIES) this.#known.clear();
      this.#known.set(memo, knownMatch(exact));
    }
    const served = this.#serve(operation, query, mode, exact, search, address);
    if (served) return served;
    const names = pairs.map(([name]) => decodeComponent(name));
    const key = matchKeyOf(method, operation, query);
    return { kind: 'miss', report: nearMissReport(this.#index, { method, operation, key, query, names }, this.#index.policy) };
  }

  #serve(operation: OperationName, query: QueryMultimap, mode: MatchMode, exact: readonly IndexedRecording[] | undefined, search: string, address: string | undefined): Extract<ReplayOutcome, { kind: 'exact' | 'nearest' }> | undefined {
    if (exact) return { kind: 'exact', entry: this.#next(exact, counterOf(exact), search, address) };

    if (mode === 'nearest') {
      const [best] = closest(this.#index, operation, query, 1);
      if (best) {
        const sequence = this.#index.sequenceOf(best.entry);
        return { kind: 'nearest', entry: this.#next(sequence, counterOf(sequence), search, address), differences: best.differences };
      }
    }
    return undefined;
  }

  /**
   * The response of a recording `find` returned: from memory, or read from the index's source.
   * Requests for one recording while it is being read share that read (50 clients asking for a
   * recording beyond the source's cache cause one file read, not 50).
   * @throws RecordingUnavailableError when its file cannot be read any more (removed or broken since it was indexed).
   */
  /** Which step of its key's sequence `entry` is (`"2/3"`), or `undefined` when its key has one recording: see `sequenceStep`. */
  stepOf(entry: IndexedRecording): string | undefined {
    return sequenceStep(entry);
  }

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

  /** The next recording of the sequence `entries` for this client; `counter`: its key in the client's counters ({@link counterOf}). */
  #next(entries: readonly IndexedRecording[], counter: string, search: string, address: string | undefined): IndexedRecording {
    const counters = this.#state.counters(this.#state.scope === 'global' ? '' : clientOf(search.startsWith('?') ? search.slice(1) : search, address), entries[0]!.operation);
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
