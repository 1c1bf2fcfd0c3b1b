import { DEFAULT_POLICY, queryMultimap, splitQuery, decodeComponent, type NamedRecording, type NormalisationPolicy } from '../normalise/index.js';
import { closest, nearMissReport, type Difference, type NearMissReport } from './near-miss.js';
import { RecordingIndex, requestKey, type IndexedRecording } from './recording-index.js';

/** How a miss of the exact key is answered: `strict` explains it; `nearest` serves the closest recording of the same operation. */
export type MatchMode = 'strict' | 'nearest';

/** The value of the `x-mockvideo-match` response header. */
export type MatchKind = 'exact' | 'nearest' | 'fallback' | 'recorded';

/** The response header that says how a replayed answer was matched. */
export const MATCH_HEADER = 'x-mockvideo-match';

/** The response header of a `nearest` answer that lists the parameters that differ from the recording served. */
export const DIFFERENCES_HEADER = 'x-mockvideo-differences';

/** The response header that names the recording that answered. */
export const RECORDING_HEADER = 'x-mockvideo-recording';

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
  /** Default {@link DEFAULT_POLICY}. */
  policy?: NormalisationPolicy;
}

/**
 * The replay engine: finds the recording of a request (exact key first, O(1); then, in `nearest`
 * mode, the closest recording of the same operation), serves several recordings of one key in
 * recorded order with the last one repeating, and remembers which recordings were used.
 * Pure of I/O: runs in any runtime.
 *
 * @example
 * const replayer = new Replayer(recordings, { match: 'strict' });
 * replayer.find('GET', '/api/g1/meta/cp', '?_region=IN') // { kind: 'exact', entry }
 */
export class Replayer {
  #index: RecordingIndex;
  readonly match: MatchMode;
  readonly #served = new Map<string, number>();
  readonly #used = new Set<string>();

  constructor(recordings: readonly NamedRecording[], options: ReplayerOptions = {}) {
    this.#index = new RecordingIndex(recordings, options.policy ?? DEFAULT_POLICY);
    this.match = options.match ?? 'nearest';
  }
  /** The recordings it answers from, indexed by match key. */
  get index(): RecordingIndex {
    return this.#index;
  }

  /** Answers from `recordings` from the next request on (a reload of the folder); sequences and the unused list start again. */
  replaceRecordings(recordings: readonly NamedRecording[]): void {
    this.#index = new RecordingIndex(recordings, this.#index.policy);
    this.#served.clear();
    this.#used.clear();
  }


  /** The recording for one request: `search` is the raw query string (with or without `?`). */
  find(method: string, pathname: string, search: string, mode: MatchMode = this.match): ReplayOutcome {
    // HEAD is answered like GET (the host drops the body).
    if (method.toUpperCase() === 'HEAD') method = 'GET';
    const pairs = splitQuery(search);
    const at = requestKey(method, pathname, pairs, this.#index.policy);
    if (!at) return { kind: 'not-operation' };
    const exact = this.#index.lookup(at.key);
    if (exact) return { kind: 'exact', entry: this.#next(exact) };
    const query = queryMultimap(pairs, this.#index.policy);
    if (mode === 'nearest') {
      const [best] = closest(this.#index, at.operation, query, 1);
      if (best) return { kind: 'nearest', entry: this.#next(this.#index.lookup(best.entry.key)!), differences: best.differences };
    }
    const names = pairs.map(([name]) => decodeComponent(name));
    return { kind: 'miss', report: nearMissReport(this.#index, { method: method.toUpperCase(), operation: at.operation, key: at.key, query, names }, this.#index.policy) };
  }

  #next(entries: readonly IndexedRecording[]): IndexedRecording {
    const key = entries[0]!.key;
    const served = this.#served.get(key) ?? 0;
    this.#served.set(key, served + 1);
    const entry = entries[Math.min(served, entries.length - 1)]!;
    this.#used.add(entry.name);
    return entry;
  }

  /** Adds a recording (e.g. one just recorded) and counts it as used. */
  add(named: NamedRecording): void {
    this.#index.add(named);
    this.#used.add(named.name);
  }

  /** The names of the recordings never served, in the order given. */
  unused(): string[] {
    return this.#index.all().filter((e) => !this.#used.has(e.name)).map((e) => e.name);
  }

  /** Starts every sequence from its first recording again. */
  resetSequences(): void {
    this.#served.clear();
  }
}
