import { OPERATION_NAMES, operationOfPath, type OperationName } from '../contract/core.js';
import { decodeComponent, ignoredBecause, matchKey, matchKeyOf, type NamedRecording, type NormalisationPolicy, type QueryMultimap, type Recording } from '../normalise/index.js';
import { stepText } from '../state/client-state.js';
import { IntList, TextPool, type IntListData, type TextPoolData } from './compact.js';
import { OperationIndex, type OperationIndexData } from './operation-index.js';
import { responseOf, type RecordedResponse, type RecordingRef, type RecordingSource } from './recording-source.js';

/**
 * A recording as the index gives it: its name, operation and method, and its match key and matching
 * query under the index's policy (both rebuilt when read). `recording` is the whole recording when it
 * was given in memory, `undefined` when its response stays in its file (see
 * {@link RecordingIndex.response}). A fresh object on each lookup: compare recordings by `name`.
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

class Entry implements IndexedRecording {
  constructor(
    readonly owner: RecordingIndex,
    /** The recording's number in its index. */
    readonly id: number,
    readonly name: string,
    readonly operation: OperationName,
    readonly method: string,
    readonly recording: Recording | undefined,
    /** Its key's position in the operation's index. */
    readonly position: number,
    readonly operationIndex: OperationIndex,
  ) {}
  get key(): string {
    return matchKeyOf(this.method, this.operation, this.query);
  }
  get query(): QueryMultimap {
    return this.operationIndex.queryOf(this.position);
  }
}

/**
 * Which step of its key's sequence (the recordings of one match key, served in recorded order) a
 * recording is, as `stepText` writes it (`"2/3"`); `undefined` when its key has one recording.
 */
export function sequenceStep(recording: IndexedRecording): string | undefined {
  const entry = entryOf(recording);
  const ids = entry.operationIndex.recordingsOf(entry.position);
  return ids.length > 1 ? stepText(ids.indexOf(entry.id), ids.length) : undefined;
}

function entryOf(recording: IndexedRecording): Entry {
  if (!(recording instanceof Entry)) throw new TypeError('[mockvideo] Not a recording of a RecordingIndex: pass a recording the index gave.');
  return recording;
}

/**
 * The plain-data form of a {@link RecordingIndex} of recordings given as references (see
 * {@link RecordingIndex.data}): typed arrays, numbers, strings, arrays and maps, which copy between
 * threads with `postMessage` (`mockvideo replay` indexes a large folder in a worker thread). Its
 * layout is the class's own business: make it with `data()`, read it with `RecordingIndex.of()`.
 */
export interface RecordingIndexData {
  names: TextPoolData;
  operationOf: IntListData;
  positionOf: IntListData;
  operations: OperationIndexData[];
}

/**
 * Recordings indexed in memory for replay, by match key (an exact lookup costs one step per query
 * parameter however many recordings there are) and, per operation, for nearest matches and
 * near-miss reports (see operation-index.ts: the search does not scan the recordings).
 *
 * Only what matching needs is held, mostly in typed arrays (see compact.ts): 100,000 recordings
 * take tens of megabytes. A recording given as a {@link RecordingRef} keeps its response in its
 * file: it is read from `source` when served; one given as a {@link NamedRecording} is kept whole.
 * Keys are computed from each stored request under the policy, so a changed policy takes effect on
 * replay. Several recordings under one key keep the order they were given in (the recorded order).
 *
 * @example
 * const index = new RecordingIndex(recordings, DEFAULT_POLICY);
 * index.find('GET', 'meta/cp', queryMultimap(splitQuery('_region=IN'), DEFAULT_POLICY)) // [recording] or undefined
 */
export class RecordingIndex {
  readonly policy: NormalisationPolicy;
  /** Where the responses of recordings given as {@link RecordingRef} are read; `undefined` when all were given in memory. */
  readonly source: RecordingSource | undefined;
  readonly #operations = new Map<OperationName, OperationIndex>();
  // Per recording number: its name, operation (its place in OPERATION_NAMES) and key position; the whole recording when given in memory.
  #names = new TextPool();
  #operationOf = new IntList(16);
  #positionOf = new IntList(16);
  readonly #whole = new Map<number, Recording>();

  constructor(recordings: ReadonlyArray<NamedRecording | RecordingRef>, policy: NormalisationPolicy, source?: RecordingSource) {
    this.policy = policy;
    this.source = source;
    for (const recording of recordings) this.add(recording);
  }

  /**
   * The index under `policy` whose {@link RecordingIndex.data} `data` is, its responses read from
   * `source` (the data is not copied: it is the index's own from now on). Costs a step per
   * operation and parameter name, none per recording. `policy` must be the one it was made under.
   */
  static of(data: RecordingIndexData, policy: NormalisationPolicy, source?: RecordingSource): RecordingIndex {
    const index = new RecordingIndex([], policy, source);
    index.#names = TextPool.of(data.names);
    index.#operationOf = IntList.of(data.operationOf);
    index.#positionOf = IntList.of(data.positionOf);
    for (const operation of data.operations) index.#operations.set(operation.operation, OperationIndex.of(operation));
    return index;
  }

  /**
   * The index's plain-data form, for {@link RecordingIndex.of} (in another thread). Not a copy:
   * transfer its typed arrays' buffers only when this index is used no more.
   *
   * @throws Error when a recording was given whole (a {@link NamedRecording}): only references make data.
   */
  data(): RecordingIndexData {
    if (this.#whole.size) throw new Error('[mockvideo] A RecordingIndex holding whole recordings has no data form: give it RecordingRefs (their responses stay in the source).');
    return {
      names: this.#names.data(),
      operationOf: this.#operationOf.data(),
      positionOf: this.#positionOf.data(),
      operations: [...this.#operations.values()].map((operation) => operation.data()),
    };
  }

  /** The number of recordings. */
  get size(): number {
    return this.#names.length;
  }

  /**
   * Adds a recording after the ones of its key (e.g. one just recorded by `--record-missing`):
   * a {@link NamedRecording} (kept whole) or a {@link RecordingRef} (its response read from `source` when served).
   */
  add(recording: NamedRecording | RecordingRef): IndexedRecording {
    const id =
      'recording' in recording
        ? this.#add(recording.name, recording.recording.operation, recording.recording.request.method, recording.recording.request.query, recording.recording)
        : this.#add(recording.name, recording.operation, recording.method, recording.query, undefined);
    return this.#entry(id);
  }

  /**
   * Adds a recording whose response stays in `source` (as {@link add} with a {@link RecordingRef}),
   * without making its {@link IndexedRecording}: for loading a folder of many.
   */
  addRef(name: string, operation: OperationName, method: string, query: RecordingRef['query']): void {
    this.#add(name, operation, method, query, undefined);
  }

  #add(name: string, operation: OperationName, method: string, pairs: RecordingRef['query'], whole: Recording | undefined): number {
    let ofOperation = this.#operations.get(operation);
    if (!ofOperation) this.#operations.set(operation, (ofOperation = new OperationIndex(operation)));
    const id = this.#names.add(name);
    this.#operationOf.push(OPERATION_NAMES.indexOf(operation));
    this.#positionOf.push(ofOperation.addPairs(method.toUpperCase(), pairs, this.#nameOf, id));
    if (whole) this.#whole.set(id, whole);
    return id;
  }

  /** The decoded name of a raw parameter name, or `undefined` when the policy leaves it out of matching (as `queryMultimap` decides). */
  readonly #nameOf = (rawName: string): string | undefined => {
    const name = decodeComponent(rawName);
    return ignoredBecause(this.policy, name) === undefined ? name : undefined;
  };

  #entry(id: number): Entry {
    const operation = OPERATION_NAMES[this.#operationOf.get(id)]!;
    const ofOperation = this.#operations.get(operation)!;
    const position = this.#positionOf.get(id);
    return new Entry(this, id, this.#names.get(id), operation, ofOperation.methodOf(position), this.#whole.get(id), position, ofOperation);
  }

  /**
   * The recordings of one request, in recorded order, or `undefined`: `method` (any case),
   * `operation` and the request's matching query (see `queryMultimap`). One step per parameter.
   */
  find(method: string, operation: OperationName, query: QueryMultimap): readonly IndexedRecording[] | undefined {
    const ofOperation = this.#operations.get(operation);
    const position = ofOperation ? ofOperation.find(method.toUpperCase(), query) : -1;
    return position < 0 ? undefined : ofOperation!.recordingsOf(position).map((id) => this.#entry(id));
  }

  /** The recordings under the match key `key`, in recorded order, or `undefined`. One step per parameter of the key. */
  lookup(key: string): readonly IndexedRecording[] | undefined {
    let parsed: { method?: unknown; operation?: unknown; query?: unknown };
    try {
      parsed = JSON.parse(key) as typeof parsed;
    } catch {
      return undefined;
    }
    const { method, operation, query } = parsed;
    if (typeof method !== 'string' || typeof operation !== 'string' || !query || typeof query !== 'object') return undefined;
    const found = this.find(method, operation as OperationName, Object.assign(Object.create(null) as QueryMultimap, query));
    return found && found[0]!.key === key ? found : undefined;
  }

  /** The recordings that share the match key of `recording` (itself included), in recorded order. */
  sequenceOf(recording: IndexedRecording): readonly IndexedRecording[] {
    const entry = entryOf(recording);
    return entry.operationIndex.recordingsOf(entry.position).map((id) => entry.owner.#entry(id));
  }

  /**
   * The first recording of each of the `limit` match keys of `operation` closest to `requested`
   * (fewest parameters that differ in value, order or presence first; ties in recorded order), with
   * that number. Never one of another operation. Does not scan the recordings (see operation-index.ts).
   */
  closest(operation: OperationName, requested: QueryMultimap, limit: number): Array<{ entry: IndexedRecording; count: number }> {
    const ofOperation = this.#operations.get(operation);
    if (!ofOperation) return [];
    return ofOperation.closest(requested, limit).map(({ position, count }) => ({ entry: this.#entry(ofOperation.firstOf(position)), count }));
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
    if (!source) throw new Error(`[mockvideo] Recording ${entry.name} was indexed without its response and the index has no source to read it from. Give the RecordingIndex a RecordingSource.`);
    return source.response(entry.name);
  }

  /** The names of every recording, in the order given. */
  *names(): IterableIterator<string> {
    for (let id = 0; id < this.size; id++) yield this.#names.get(id);
  }

  /** The recordings of one operation, in the order given. Visits every recording: for reports, not per request. */
  ofOperation(operation: OperationName): readonly IndexedRecording[] {
    return this.all().filter((entry) => entry.operation === operation);
  }

  /** Every recording, in the order given (new objects: for reports, not per request). */
  all(): readonly IndexedRecording[] {
    return Array.from({ length: this.size }, (_, id) => this.#entry(id));
  }

  /** The number of distinct match keys. */
  get keyCount(): number {
    let count = 0;
    for (const ofOperation of this.#operations.values()) count += ofOperation.keyCount;
    return count;
  }
}

/** The operation of a path, and the key of a request, under `policy`. `undefined` when the path is not an operation. */
export function requestKey(method: string, pathname: string, pairs: Parameters<typeof matchKey>[2], policy: NormalisationPolicy) {
  const operation = operationOfPath(pathname);
  return operation ? { operation, key: matchKey(method, operation, pairs, policy) } : undefined;
}
