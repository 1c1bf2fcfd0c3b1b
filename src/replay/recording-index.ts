import { operationOfPath, type OperationName } from '../contract/index.js';
import { matchKey, queryMultimap, type NamedRecording, type NormalisationPolicy, type QueryMultimap, type Recording } from '../normalise/index.js';

/** A recording as the index holds it: its name, its match key under the replay policy and its matching query. */
export interface IndexedRecording {
  name: string;
  recording: Recording;
  key: string;
  query: QueryMultimap;
}

/**
 * Recordings indexed in memory: by match key (a `Map`, so an exact lookup is O(1) however many
 * recordings there are) and by operation (for nearest matches and near-miss reports). Keys are
 * recomputed from each stored request under the policy, so a changed policy takes effect on replay.
 * Several recordings under one key keep the order they were given in (the recorded order).
 */
export class RecordingIndex {
  readonly policy: NormalisationPolicy;
  readonly #byKey = new Map<string, IndexedRecording[]>();
  readonly #byOperation = new Map<OperationName, IndexedRecording[]>();
  readonly #all: IndexedRecording[] = [];

  constructor(recordings: readonly NamedRecording[], policy: NormalisationPolicy) {
    this.policy = policy;
    for (const named of recordings) this.add(named);
  }

  /** Adds a recording after the ones of its key (e.g. one just recorded by `--record-missing`). */
  add({ name, recording }: NamedRecording): IndexedRecording {
    const { method, query } = recording.request;
    const entry: IndexedRecording = { name, recording, key: matchKey(method, recording.operation, query, this.policy), query: queryMultimap(query, this.policy) };
    const same = this.#byKey.get(entry.key);
    if (same) same.push(entry);
    else this.#byKey.set(entry.key, [entry]);
    const ofOperation = this.#byOperation.get(recording.operation);
    if (ofOperation) ofOperation.push(entry);
    else this.#byOperation.set(recording.operation, [entry]);
    this.#all.push(entry);
    return entry;
  }

  /** The recordings under `key`, in recorded order, or `undefined`. O(1). */
  lookup(key: string): readonly IndexedRecording[] | undefined {
    return this.#byKey.get(key);
  }

  /** The recordings of one operation, in the order given. */
  ofOperation(operation: OperationName): readonly IndexedRecording[] {
    return this.#byOperation.get(operation) ?? [];
  }

  /** Every recording, in the order given. */
  all(): readonly IndexedRecording[] {
    return this.#all;
  }

  /** The number of distinct match keys. */
  get keyCount(): number {
    return this.#byKey.size;
  }
}

/** The operation of a path, and the key of a request, under `policy`. `undefined` when the path is not an operation. */
export function requestKey(method: string, pathname: string, pairs: Parameters<typeof matchKey>[2], policy: NormalisationPolicy) {
  const operation = operationOfPath(pathname);
  return operation ? { operation, key: matchKey(method, operation, pairs, policy) } : undefined;
}
