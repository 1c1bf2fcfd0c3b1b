import type { OperationName } from '../contract/core.js';
import {
  matchKeyOf,
  queryValues,
  type NamedRecording,
  type NormalisationPolicy,
  type QueryMultimap,
  type QueryValues,
  type Recording,
} from '../normalise/index.js';
import { stepText } from '../state/client-state.js';
import { responseOf, type RecordedResponse, type RecordingRef, type RecordingSource } from './recording-source.js';
import { prefixed, PrefixedError } from '../errors.js';

/**
 * A recording as the index gives it: its name, operation and method, and its match key and matching
 * query under the index's policy. `recording` is the whole recording when it was given in memory,
 * `undefined` when its response stays in its file (see {@link RecordingIndex.response}).
 */
export interface IndexedRecording {
  readonly name: string;
  readonly operation: OperationName;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The match key (see `matchKey`). */
  readonly key: string;
  readonly query: QueryMultimap;
  readonly recording: Recording | undefined;
}

/** One matching parameter and its values, made once per index for every recording that has them; `id` numbers it in the index. */
interface Pair {
  readonly name: string;
  readonly values: readonly string[];
  readonly id: number;
}

/** The pairs `#filed` gives a lookup, which keeps none. */
const NO_PAIRS: readonly Pair[] = [];

/** An indexed recording and the recordings of its match key (itself included, in recorded order). */
class Entry implements IndexedRecording {
  constructor(
    readonly name: string,
    readonly operation: OperationName,
    readonly method: string,
    /** Its matching query, as pairs shared with the other recordings of the index. */
    readonly pairs: readonly Pair[],
    readonly recording: Recording | undefined,
    readonly sequence: Entry[],
    readonly owner: RecordingIndex,
  ) {}

  get key(): string {
    return matchKeyOf(this.method, this.operation, this.query);
  }

  get query(): QueryMultimap {
    const query = Object.create(null) as QueryMultimap;
    for (const { name, values } of this.pairs) query[name] = values.slice();
    return query;
  }
}

function entryOf(recording: IndexedRecording): Entry {
  if (!(recording instanceof Entry))
    throw new TypeError(prefixed('Not a recording of a RecordingIndex: pass a recording the index gave.'));
  return recording;
}

/**
 * Which step of its key's sequence (the recordings of one match key, served in recorded order) a
 * recording is, as `stepText` writes it (`"2/3"`); `undefined` when its key has one recording.
 */
export function sequenceStep(recording: IndexedRecording): string | undefined {
  const { sequence } = entryOf(recording);
  return sequence.length > 1 ? stepText(sequence.indexOf(recording as Entry), sequence.length) : undefined;
}

/**
 * The number of parameters whose values differ (in value, order or presence) between a recording's
 * pairs and a request's (by name; a requested pair the index does not hold is `null`).
 */
function differenceCount(recorded: readonly Pair[], requested: ReadonlyMap<string, Pair | null>): number {
  let count = 0;
  let shared = 0;
  for (const pair of recorded) {
    const asked = requested.get(pair.name);
    if (asked === undefined) count++;
    else {
      shared++;
      if (asked !== pair) count++;
    }
  }
  return count + requested.size - shared;
}

/**
 * Recordings indexed in memory for replay: per operation, a `Map` from match key (as `#filed`
 * writes it) to the recordings of that key in recorded order. An exact lookup is one map access;
 * the nearest search is linear in the operation's match keys (misses only; see docs/performance.md for 100,000 recordings). Each
 * (parameter, values) pair is held once per index and shared by the recordings that have it: a
 * folder's recordings share most of their parameters.
 *
 * A recording given as a {@link RecordingRef} keeps its response in its file: it is read from
 * `source` when served; one given as a {@link NamedRecording} is kept whole. Keys are computed from
 * each stored request under the policy, so a changed policy takes effect on replay.
 *
 * @example
 * const index = new RecordingIndex(recordings, DEFAULT_POLICY);
 * index.find('GET', 'meta/cp', queryValues('_region=IN')) // [recording] or undefined
 */
export class RecordingIndex {
  readonly policy: NormalisationPolicy;
  /** Where the responses of recordings given as {@link RecordingRef} are read; `undefined` when all were given in memory. */
  readonly source: RecordingSource | undefined;
  readonly #byOperation = new Map<OperationName, Map<string, Entry[]>>();
  readonly #all: Entry[] = [];
  /** The pairs of the index sent once, by name and value; {@link repeated}: the others, by {@link pairKey}. */
  readonly #single = new Map<string, Map<string, Pair>>();
  readonly #repeated = new Map<string, Pair>();
  #pairCount = 0;
  #sequenceCount = 0;
  /**
   * The pair ids of the request being filed, one buffer reused and sorted in place (see `#filed`),
   * no array of pairs for a lookup: with both made per request, replay of 10,000 recordings answered
   * 20,024 instead of 21,812 req/s, 48 instead of 45 µs of CPU each (the bench's 20 requests, median
   * of 3 interleaved 4-s rounds, Node 20, 2 December; a sampling heap profile found them promoted).
   */
  #ids = new Uint32Array(64);
  /** The names the policy leaves out of the match key (volatile, secret, identity: see `ignoredBecause`). */
  readonly #ignored: ReadonlySet<string>;

  constructor(
    recordings: ReadonlyArray<NamedRecording | RecordingRef>,
    policy: NormalisationPolicy,
    source?: RecordingSource,
  ) {
    this.policy = policy;
    this.source = source;
    this.#ignored = new Set([...policy.volatile, ...policy.secret, ...policy.identity]);
    for (const recording of recordings) this.add(recording);
  }

  /** The number of recordings. */
  get size(): number {
    return this.#all.length;
  }

  /**
   * Adds a recording after the ones of its key (e.g. one just recorded by `--record-missing`):
   * a {@link NamedRecording} (kept whole) or a {@link RecordingRef} (its response read from `source` when served).
   */
  add(recording: NamedRecording | RecordingRef): IndexedRecording {
    const whole = 'recording' in recording ? recording.recording : undefined;
    const operation = whole ? whole.operation : (recording as RecordingRef).operation;
    const request = whole ? whole.request : (recording as RecordingRef);
    const method = request.method.toUpperCase();
    const { key, pairs } = this.#filed(method, queryValues(request.query), true)!;
    let keys = this.#byOperation.get(operation);
    if (!keys) this.#byOperation.set(operation, (keys = new Map()));
    let sequence = keys.get(key);
    if (!sequence) keys.set(key, (sequence = []));
    const entry = new Entry(recording.name, operation, method, pairs, whole, sequence, this);
    sequence.push(entry);
    if (sequence.length === 2) this.#sequenceCount++;
    this.#all.push(entry);
    return entry;
  }

  /**
   * The recordings of one request, in recorded order, or `undefined`: `method` (any case),
   * `operation` and the request's decoded query (see `queryValues`), matched under the index's policy.
   */
  find(method: string, operation: OperationName, values: QueryValues): readonly IndexedRecording[] | undefined {
    const filed = this.#filed(method.toUpperCase(), values, false);
    return filed && this.#byOperation.get(operation)?.get(filed.key);
  }

  /**
   * A request's matching pairs and the key the index files it under: the upper-case `method` and
   * the ids of its pairs in increasing order (one text per match key, whatever the order sent: see
   * `matchKeyOf`; about a tenth of its length, which makes replay of 100,000 recordings hold ~80 MB
   * less). `undefined` when a pair is not in the index (no recording matches), unless `add` makes
   * the pairs it lacks.
   */
  #filed(method: string, values: QueryValues, add: boolean): { key: string; pairs: readonly Pair[] } | undefined {
    // The pairs are kept only by `add`; a lookup files the ids alone.
    const pairs: Pair[] | undefined = add ? [] : undefined;
    let ids = this.#ids;
    let count = 0;
    for (const [name, sent] of values) {
      if (this.#ignored.has(name)) continue;
      const pair = this.#pair(name, sent.length === 1 ? sent[0]! : sent, add);
      if (!pair) return undefined;
      pairs?.push(pair);
      if (count === ids.length) {
        ids = new Uint32Array(count * 2);
        ids.set(this.#ids);
        this.#ids = ids;
      }
      ids[count++] = pair.id;
    }
    return { key: `${method} ${ids.subarray(0, count).sort().join(' ')}`, pairs: pairs ?? NO_PAIRS };
  }

  /**
   * The index's pair of `name` sent once with `value`, or repeated with the `value` list; `undefined`
   * when it has none (made and kept with `add`). A value sent once is looked up with no array made
   * for it: with one array per pair looked up, V8 moved them all to the old generation, and loading
   * 100,000 recordings took ~35% more CPU (5.9 s, not 4.3 s).
   */
  #pair(name: string, value: string | readonly string[], add: boolean): Pair | undefined {
    const repeated = typeof value === 'string' ? undefined : pairKey(name, value);
    let byValue = repeated === undefined ? this.#single.get(name) : undefined;
    let pair = repeated === undefined ? byValue?.get(value as string) : this.#repeated.get(repeated);
    if (pair || !add) return pair;
    pair = { name, values: typeof value === 'string' ? [value] : value, id: this.#pairCount++ };
    if (repeated !== undefined) this.#repeated.set(repeated, pair);
    else {
      if (!byValue) this.#single.set(name, (byValue = new Map()));
      byValue.set(value as string, pair);
    }
    return pair;
  }

  /** The recordings that share the match key of `recording` (itself included), in recorded order. */
  sequenceOf(recording: IndexedRecording): readonly IndexedRecording[] {
    return entryOf(recording).sequence;
  }

  /**
   * The first recording of each of the `limit` match keys of `operation` closest to `requested`
   * (fewest parameters that differ in value, order or presence first; ties in recorded order), with
   * that number. Never one of another operation. Linear in the operation's match keys.
   */
  closest(
    operation: OperationName,
    requested: QueryMultimap,
    limit: number,
  ): Array<{ entry: IndexedRecording; count: number }> {
    const keys = this.#byOperation.get(operation);
    if (!keys || !(limit > 0)) return [];
    const asked = new Map(
      Object.keys(requested).map((name) => {
        const values = requested[name]!;
        return [name, this.#pair(name, values.length === 1 ? values[0]! : values, false) ?? null];
      }),
    );
    const ranked: Array<{ entry: IndexedRecording; count: number }> = [];
    if (limit >= keys.size) {
      for (const [first] of keys.values()) ranked.push({ entry: first!, count: differenceCount(first!.pairs, asked) });
      return ranked.sort((a, b) => a.count - b.count);
    }
    for (const [first] of keys.values()) {
      const count = differenceCount(first!.pairs, asked);
      if (ranked.length >= limit && count >= ranked[ranked.length - 1]!.count) continue;
      let at = ranked.length;
      while (at > 0 && ranked[at - 1]!.count > count) at--;
      ranked.splice(at, 0, { entry: first!, count });
      if (ranked.length > limit) ranked.pop();
    }
    return ranked;
  }

  /**
   * The response of a recording of this index: from memory when it was given whole, else read from
   * the index's `source` (a file in `mockvideo replay`).
   *
   * @throws RecordingUnavailableError (from the source) when it cannot be read any more.
   * @throws Error when the recording was given as a reference and the index has no source.
   */
  response(recording: IndexedRecording): RecordedResponse | Promise<RecordedResponse> {
    const entry = entryOf(recording);
    if (entry.recording) return responseOf(entry.recording.response);
    const source = entry.owner.source;
    if (!source)
      throw new PrefixedError(
        `Recording ${entry.name} was indexed without its response and the index has no source to read it from. Give the RecordingIndex a RecordingSource.`,
      );
    return source.response(entry.name);
  }

  /** The names of every recording, in the order given. */
  *names(): IterableIterator<string> {
    for (const entry of this.#all) yield entry.name;
  }

  /** Whether a match key has more than one recording (a sequence, served in recorded order). */
  get hasSequences(): boolean {
    return this.#sequenceCount > 0;
  }
}

/** The text a repeated parameter's pair is known by in an index: its name, then its values as JSON (which holds no raw U+0000). */
function pairKey(name: string, values: readonly string[]): string {
  return `${name}\u0000${JSON.stringify(values)}`;
}
