import type { OperationName } from '../contract/core.js';
import { decodeComponent, type QueryMultimap, type RawPair } from '../normalise/index.js';
import { IntList, TextMap, grownSlots, type IntListData, type TextMapData } from './compact.js';

/**
 * The matching index of one operation: every distinct match key of its recordings, held compactly,
 * with an exact lookup by query and a nearest search that does not scan the keys. Keys are known by
 * their *position* (0, 1, 2… in order of first recording), recordings by the number the caller
 * gives them.
 *
 * Storage: each (parameter, values) pair is interned once as a small integer, its *pair id*; a key
 * is its method and the sorted pair ids of its query, kept in typed arrays (see compact.ts) with
 * an open-addressing hash table over them for the exact lookup. Its query is rebuilt when asked
 * for. An inverted index (pair id → the positions of the keys holding it) serves the nearest search.
 *
 * Nearest search. The number of parameters that differ between a key K and a request Q is
 * `|names(K) Δ names(Q)| + mismatches`, a mismatch being a parameter of both with other values.
 * Keys are grouped by their set of parameter names (a *name group*: few in practice), so the first
 * term is one number per group. For the second, each parameter of the request walks the inverted
 * index on its smaller side: the keys holding the requested value when they are at most half of
 * the keys that have the parameter, else the keys holding another value. Keys that no walk touched
 * share one count per group, so only the first of them (in recorded order) can rank. The cost is
 * the minority postings of the request's parameters, not the number of keys: for the usual folder
 * (most parameters equal everywhere, one or two that tell recordings apart) a handful of steps,
 * however many recordings there are.
 */

/** A key ranked by {@link OperationIndex.closest}: its position and the number of parameters that differ from the request. */
export interface RankedKey {
  position: number;
  count: number;
}

/**
 * The keys holding one pair, ascending: one position (most values of a parameter that tells
 * recordings apart), a few, or many; or a view of the flat postings of an index made from its data
 * (see {@link OperationIndex.of}).
 */
type Postings = number | number[] | IntList | Int32Array;

const LONG_POSTINGS = 256;

/** The most raw parameter names whose name id an operation's index remembers (see `addPairs`). */
const MAX_RAW_NAMES = 4096;

function postingsLength(postings: Postings | undefined): number {
  return postings === undefined ? 0 : typeof postings === 'number' ? 1 : postings.length;
}

function withPosition(postings: Postings | undefined, position: number): Postings {
  if (postings === undefined) return position;
  if (typeof postings === 'number') return [postings, position];
  if (postings instanceof Int32Array) postings = Array.from(postings);
  if (!Array.isArray(postings)) {
    postings.push(position);
    return postings;
  }
  postings.push(position);
  if (postings.length < LONG_POSTINGS) return postings;
  const long = new IntList(postings.length * 2);
  for (const p of postings) long.push(p);
  return long;
}

const ascending = (a: number, b: number) => a - b;

/** A hash of a method and pair ids (FNV-1a over 32-bit words). */
function hashOf(method: number, pairIds: ArrayLike<number>): number {
  let hash = Math.imul(0x811c9dc5 ^ method, 0x01000193);
  for (let i = 0; i < pairIds.length; i++) hash = Math.imul(hash ^ pairIds[i]!, 0x01000193);
  return hash >>> 0;
}

/** The best keys seen so far in one nearest search, by (count, position), at most `limit` of them. */
class Ranking {
  readonly items: RankedKey[] = [];
  constructor(readonly limit: number) {}

  /** True when no key with `count` differences can enter the ranking any more. */
  excludes(count: number): boolean {
    return this.items.length >= this.limit && count > this.items[this.items.length - 1]!.count;
  }

  /** Adds a key with `count` differing parameters, if it ranks. */
  offer(count: number, position: number): void {
    const items = this.items;
    if (this.limit === Infinity) {
      items.push({ position, count });
      return;
    }
    const before = (item: RankedKey) => count < item.count || (count === item.count && position < item.position);
    if (items.length >= this.limit && !before(items[items.length - 1]!)) return;
    let at = items.length;
    while (at > 0 && before(items[at - 1]!)) at--;
    items.splice(at, 0, { position, count });
    if (items.length > this.limit) items.pop();
  }

  /** The ranked keys, closest first. */
  result(): RankedKey[] {
    if (this.limit === Infinity) this.items.sort((a, b) => a.count - b.count || a.position - b.position);
    return this.items;
  }
}

/** The keys of one operation that have the same set of parameter names. */
interface NameGroup {
  /** The name ids of the group's parameters. */
  names: ReadonlySet<number>;
  /** The positions of its keys, ascending. */
  members: IntList;
}

/**
 * The plain-data form of an {@link OperationIndex} (see {@link OperationIndex.data}): typed arrays,
 * numbers, strings, arrays and maps only, so that it copies between threads with `postMessage` and
 * its typed arrays' buffers can be transferred. The postings of all pairs are flat: the keys of pair
 * `p` are `postings[postingStarts[p] … postingStarts[p + 1] - 1]`. Its layout is the class's own
 * business: make it with `data()` and read it with `of()`, of the same version of mockvideo.
 */
export interface OperationIndexData {
  operation: OperationName;
  names: string[];
  single: TextMapData[];
  repeated: Array<Map<string, number> | undefined>;
  repeatedValues: string[][];
  pairsOfName: IntListData[];
  keysWithName: number[];
  pairName: IntListData;
  pairValue: IntListData;
  postingStarts: Int32Array<ArrayBuffer>;
  postings: Int32Array<ArrayBuffer>;
  methods: string[];
  keyMethod: IntListData;
  keyGroup: IntListData;
  keyFirst: IntListData;
  keyStart: IntListData;
  keyHash: IntListData;
  pairPool: IntListData;
  keyMore: Map<number, number[]>;
  slots: Int32Array<ArrayBuffer>;
  groups: Array<{ names: number[]; members: IntListData }>;
  lastGroup: number;
}

/** The keys of one operation; see the module comment for the layout and the nearest search. */
export class OperationIndex {
  // The dictionary: parameter names, and per name its values (sent once: in typed arrays, as a
  // parameter may have a value per recording) or value lists (repeated: few, in a Map by their JSON).
  #nameIds = new Map<string, number>();
  #names: string[] = [];
  #single: TextMap[] = [];
  #repeated: Array<Map<string, number> | undefined> = [];
  #repeatedValues: Array<readonly string[]> = [];
  /** Per name id: its pair ids, and how many keys have the parameter. */
  #pairsOfName: IntList[] = [];
  #keysWithName: number[] = [];
  #pairName = new IntList(16);
  /** Pair id → its value: the number of the text in its name's `#single` map, or -1 - its place in `#repeatedValues`. */
  #pairValue = new IntList(16);
  /**
   * Pair id → the positions of the keys holding it, ascending, at `pairId - #flatCount`. An index
   * made from its data keeps the postings of its first `#flatCount` pairs flat (`#flat`), and those
   * that gained a key since in `#flatChanged`.
   */
  #postings: Array<Postings | undefined> = [];
  #flatCount = 0;
  #flat: { starts: Int32Array; postings: Int32Array } | undefined;
  #flatChanged: Map<number, Postings> | undefined;
  // The keys, by position: method, name group, first recording, pair ids (a slice of one pool) and hash.
  #methods: string[] = [];
  #keyMethod = new IntList(16);
  #keyGroup = new IntList(16);
  #keyFirst = new IntList(16);
  #keyStart = new IntList(16);
  #keyHash = new IntList(16);
  #pairPool = new IntList(64);
  /** Position → the recordings after the first, for the few keys recorded more than once. */
  #keyMore = new Map<number, number[]>();
  /** Open addressing over key positions (-1: empty), at most half full. */
  #slots = new Int32Array(16).fill(-1);
  #groupIds = new Map<string, number>();
  #groups: NameGroup[] = [];
  /** The group of the last key added. */
  #lastGroup = 0;
  // For `addPairs`: name ids by raw name (-1: left out of matching), and per name id the raw value
  // it was last sent once with and that value's pair id.
  readonly #rawNameIds = new Map<string, number>();
  /** The raw names of the last query added, by place, and their name ids. */
  readonly #lastRawNames: string[] = [];
  readonly #lastNameIds: number[] = [];
  readonly #lastRawValue: string[] = [];
  readonly #lastPairId: number[] = [];
  // Scratch space of `addPairs`: the name id of each pair, and per name id the last call that met it.
  #scratch = new Int32Array(64);
  #seenAt = new Uint32Array(64);
  #seenGeneration = 0;
  // Scratch space of one search: a count per key position, valid where `#stamp` holds the search's generation.
  #score = new Int32Array(16);
  #stamp = new Uint32Array(16);
  #generation = 0;

  constructor(readonly operation: OperationName) {}

  /**
   * The index's plain-data form, to be read by {@link OperationIndex.of} (in another thread: its
   * typed arrays are the index's own, so transfer their buffers only when this index is used no more).
   */
  data(): OperationIndexData {
    const pairCount = this.#pairName.length;
    const postingStarts = new Int32Array(pairCount + 1);
    let total = 0;
    for (let pairId = 0; pairId < pairCount; pairId++) total += postingsLength(this.#postingsOf(pairId));
    const postings = new Int32Array(total);
    for (let pairId = 0, at = 0; pairId < pairCount; pairId++) {
      postingStarts[pairId] = at;
      const list = this.#postingsOf(pairId);
      if (list === undefined) continue;
      if (typeof list === 'number') postings[at++] = list;
      else if (list instanceof IntList) for (let i = 0; i < list.length; i++) postings[at++] = list.get(i);
      else for (const position of list) postings[at++] = position;
    }
    postingStarts[pairCount] = total;
    return {
      operation: this.operation,
      names: this.#names,
      single: this.#single.map((map) => map.data()),
      repeated: this.#repeated,
      repeatedValues: this.#repeatedValues as string[][],
      pairsOfName: this.#pairsOfName.map((list) => list.data()),
      keysWithName: this.#keysWithName,
      pairName: this.#pairName.data(),
      pairValue: this.#pairValue.data(),
      postingStarts,
      postings,
      methods: this.#methods,
      keyMethod: this.#keyMethod.data(),
      keyGroup: this.#keyGroup.data(),
      keyFirst: this.#keyFirst.data(),
      keyStart: this.#keyStart.data(),
      keyHash: this.#keyHash.data(),
      pairPool: this.#pairPool.data(),
      keyMore: this.#keyMore,
      slots: this.#slots,
      groups: this.#groups.map((group) => ({ names: [...group.names], members: group.members.data() })),
      lastGroup: this.#lastGroup,
    };
  }

  /**
   * The index whose {@link OperationIndex.data} `data` is (not copied: it is the index's own from
   * now on). Costs a step per parameter name and name group, none per key: the postings stay flat
   * until a key is added to them.
   */
  static of(data: OperationIndexData): OperationIndex {
    const index = new OperationIndex(data.operation);
    index.#names = data.names;
    data.names.forEach((name, id) => index.#nameIds.set(name, id));
    index.#single = data.single.map((map) => TextMap.of(map));
    index.#repeated = data.repeated;
    index.#repeatedValues = data.repeatedValues;
    index.#pairsOfName = data.pairsOfName.map((list) => IntList.of(list));
    index.#keysWithName = data.keysWithName;
    index.#pairName = IntList.of(data.pairName);
    index.#pairValue = IntList.of(data.pairValue);
    index.#flatCount = data.pairName.length;
    index.#flat = { starts: data.postingStarts, postings: data.postings };
    index.#flatChanged = new Map();
    index.#methods = data.methods;
    index.#keyMethod = IntList.of(data.keyMethod);
    index.#keyGroup = IntList.of(data.keyGroup);
    index.#keyFirst = IntList.of(data.keyFirst);
    index.#keyStart = IntList.of(data.keyStart);
    index.#keyHash = IntList.of(data.keyHash);
    index.#pairPool = IntList.of(data.pairPool);
    index.#keyMore = data.keyMore;
    index.#slots = data.slots;
    index.#groups = data.groups.map((group) => ({ names: new Set(group.names), members: IntList.of(group.members) }));
    // Keyed as `#groupOf` keys them: the group's name ids, ascending (a Set keeps the sorted order it was made in).
    index.#groups.forEach((group, id) => index.#groupIds.set([...group.names].join(','), id));
    index.#lastGroup = data.lastGroup;
    index.#score = new Int32Array(Math.max(16, Math.ceil(index.keyCount * 1.5)));
    index.#stamp = new Uint32Array(index.#score.length);
    return index;
  }

  /** The keys holding pair `pairId`, ascending. */
  #postingsOf(pairId: number): Postings | undefined {
    if (pairId >= this.#flatCount) return this.#postings[pairId - this.#flatCount];
    const changed = this.#flatChanged!.get(pairId);
    if (changed !== undefined) return changed;
    const flat = this.#flat!;
    const start = flat.starts[pairId]!;
    const end = flat.starts[pairId + 1]!;
    return end === start ? undefined : end - start === 1 ? flat.postings[start]! : flat.postings.subarray(start, end);
  }

  #setPostings(pairId: number, postings: Postings): void {
    if (pairId >= this.#flatCount) this.#postings[pairId - this.#flatCount] = postings;
    else this.#flatChanged!.set(pairId, postings);
  }

  /** The number of distinct keys. */
  get keyCount(): number {
    return this.#keyMethod.length;
  }

  #pairId(nameId: number, values: readonly string[], create: boolean): number | undefined {
    if (values.length === 1) return create ? this.#singlePairId(nameId, values[0]!) : this.#single[nameId]!.get(values[0]!);
    const table = (this.#repeated[nameId] ??= new Map());
    const json = JSON.stringify(values);
    let id = table.get(json);
    if (id === undefined && create) {
      id = this.#newPair(nameId);
      this.#pairValue.push(-1 - (this.#repeatedValues.push(values.slice()) - 1));
      table.set(json, id);
    }
    return id;
  }

  /** The pair id of a parameter sent once with `value`, made if new. */
  #singlePairId(nameId: number, value: string): number {
    const single = this.#single[nameId]!;
    let id = single.get(value);
    if (id === undefined) {
      id = this.#newPair(nameId);
      this.#pairValue.push(single.add(value, id));
    }
    return id;
  }

  #newPair(nameId: number): number {
    const id = this.#pairName.push(nameId);
    this.#postings.push(undefined);
    this.#pairsOfName[nameId]!.push(id);
    return id;
  }

  #nameId(name: string, create: boolean): number | undefined {
    let id = this.#nameIds.get(name);
    if (id === undefined && create) {
      id = this.#names.push(name) - 1;
      this.#single.push(new TextMap());
      this.#pairsOfName.push(new IntList(4));
      this.#keysWithName.push(0);
      this.#nameIds.set(name, id);
    }
    return id;
  }

  /** The pair ids of a query, ascending; `undefined` (unless `create`) when a name or pair is new to this operation. */
  #pairsOf(query: QueryMultimap, create: boolean): number[] | undefined {
    const ids: number[] = [];
    for (const name of Object.keys(query)) {
      const nameId = this.#nameId(name, create);
      if (nameId === undefined) return undefined;
      const pairId = this.#pairId(nameId, query[name]!, create);
      if (pairId === undefined) return undefined;
      ids.push(pairId);
    }
    return ids.sort(ascending);
  }

  /** The pair ids of the key at `position`. */
  #pairsAt(position: number): number[] {
    const end = position + 1 < this.#keyStart.length ? this.#keyStart.get(position + 1) : this.#pairPool.length;
    const ids: number[] = [];
    for (let i = this.#keyStart.get(position); i < end; i++) ids.push(this.#pairPool.get(i));
    return ids;
  }

  /** The position of the key of `method` (id) and sorted `pairIds`, or -1 and the empty slot a new key would take. */
  #lookup(method: number, pairIds: readonly number[], hash: number): { position: number; slot: number } {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const position = this.#slots[slot]!;
      if (position === -1) return { position, slot };
      if (this.#keyHash.get(position) !== (hash | 0) || this.#keyMethod.get(position) !== method) continue;
      const start = this.#keyStart.get(position);
      const end = position + 1 < this.#keyStart.length ? this.#keyStart.get(position + 1) : this.#pairPool.length;
      if (end - start !== pairIds.length) continue;
      let same = true;
      for (let i = 0; same && i < pairIds.length; i++) same = this.#pairPool.get(start + i) === pairIds[i];
      if (same) return { position, slot };
    }
  }

  #grow(): void {
    this.#slots = grownSlots(this.#slots.length * 2, this.keyCount, (position) => this.#keyHash.get(position));
  }

  /**
   * Adds recording number `recording` under the key of `method` (upper case) and `query`: after the
   * others of that key, or as a new key. Returns the key's position.
   */
  add(method: string, query: QueryMultimap, recording: number): number {
    return this.#addKey(method, this.#pairsOf(query, true)!, recording);
  }

  /**
   * As {@link add}, from the raw query pairs of a stored request: `nameOf` gives the decoded name
   * of a raw one, or `undefined` for a parameter left out of matching (see `queryMultimap`, whose
   * key this gives); it must give the same answer for a name every time (the index remembers it).
   * Builds no multimap, and a value sent as in the recording before costs one comparison: for
   * loading a folder of recordings, whose queries repeat most pairs.
   */
  addPairs(method: string, pairs: readonly RawPair[], nameOf: (rawName: string) => string | undefined, recording: number): number {
    const count = pairs.length;
    if (this.#scratch.length < count) this.#scratch = new Int32Array(count * 2);
    const nameIds = this.#scratch;
    if (++this.#seenGeneration === 0x1_0000_0000) {
      this.#seenAt.fill(0);
      this.#seenGeneration = 1;
    }
    const generation = this.#seenGeneration;
    let repeated = false;
    const lastNames = this.#lastRawNames;
    for (let i = 0; i < count; i++) {
      const rawName = pairs[i]![0];
      let nameId: number | undefined;
      // Usually the name at the same place in the recording before.
      if (lastNames[i] === rawName) nameId = this.#lastNameIds[i]!;
      else {
        nameId = this.#rawNameIds.get(rawName);
        if (nameId === undefined) {
          const name = nameOf(rawName);
          nameId = name === undefined ? -1 : this.#nameId(name, true)!;
          if (this.#rawNameIds.size < MAX_RAW_NAMES) this.#rawNameIds.set(rawName, nameId);
        }
        lastNames[i] = rawName;
        this.#lastNameIds[i] = nameId;
      }
      nameIds[i] = nameId;
      if (nameId < 0) continue;
      if (nameId >= this.#seenAt.length) {
        const seenAt = new Uint32Array(Math.max(16, nameId * 2));
        seenAt.set(this.#seenAt);
        this.#seenAt = seenAt;
      }
      if (this.#seenAt[nameId] === generation) repeated = true;
      this.#seenAt[nameId] = generation;
    }
    const pairIds: number[] = [];
    if (!repeated) {
      for (let i = 0; i < count; i++) {
        const nameId = nameIds[i]!;
        if (nameId < 0) continue;
        const raw = pairs[i]![1];
        if (this.#lastRawValue[nameId] !== raw) {
          this.#lastRawValue[nameId] = raw;
          this.#lastPairId[nameId] = this.#singlePairId(nameId, decodeComponent(raw));
        }
        pairIds.push(this.#lastPairId[nameId]!);
      }
    } else {
      // A parameter sent more than once is one pair: its values in the order sent.
      const values = new Map<number, string[]>();
      for (let i = 0; i < count; i++) {
        const nameId = nameIds[i]!;
        if (nameId < 0) continue;
        const value = decodeComponent(pairs[i]![1]);
        const list = values.get(nameId);
        if (list) list.push(value);
        else values.set(nameId, [value]);
      }
      for (const [nameId, list] of values) pairIds.push(this.#pairId(nameId, list, true)!);
    }
    return this.#addKey(method, pairIds.sort(ascending), recording);
  }

  #addKey(method: string, pairIds: readonly number[], recording: number): number {
    let methodId = this.#methods.indexOf(method);
    if (methodId < 0) methodId = this.#methods.push(method) - 1;
    const hash = hashOf(methodId, pairIds);
    const found = this.#lookup(methodId, pairIds, hash);
    if (found.position >= 0) {
      const more = this.#keyMore.get(found.position);
      if (more) more.push(recording);
      else this.#keyMore.set(found.position, [recording]);
      return found.position;
    }
    const groupId = this.#groupOf(pairIds);
    const position = this.#keyMethod.push(methodId);
    this.#keyGroup.push(groupId);
    this.#keyFirst.push(recording);
    this.#keyStart.push(this.#pairPool.length);
    this.#keyHash.push(hash | 0);
    for (const pairId of pairIds) {
      this.#pairPool.push(pairId);
      this.#setPostings(pairId, withPosition(this.#postingsOf(pairId), position));
      this.#keysWithName[this.#pairName.get(pairId)]!++;
    }
    this.#groups[groupId]!.members.push(position);
    this.#slots[found.slot] = position;
    if (2 * this.keyCount > this.#slots.length) this.#grow();
    if (position >= this.#stamp.length) {
      this.#score = new Int32Array(Math.ceil(this.#stamp.length * 1.5));
      this.#stamp = new Uint32Array(this.#score.length);
      this.#generation = 0;
    }
    return position;
  }

  /** The name group of a key with `pairIds`: the last one used when its names are the same (keys of a folder mostly share their names), else by its names. */
  #groupOf(pairIds: readonly number[]): number {
    const last = this.#groups[this.#lastGroup];
    // A key has each name once: the same count, all in the last group's names, is the same set.
    if (last && last.names.size === pairIds.length && pairIds.every((id) => last.names.has(this.#pairName.get(id)))) return this.#lastGroup;
    const nameIds = pairIds.map((id) => this.#pairName.get(id)).sort(ascending);
    const names = nameIds.join(',');
    let groupId = this.#groupIds.get(names);
    if (groupId === undefined) {
      groupId = this.#groups.push({ names: new Set(nameIds), members: new IntList(16) }) - 1;
      this.#groupIds.set(names, groupId);
    }
    this.#lastGroup = groupId;
    return groupId;
  }

  /** The position of the key of `method` (upper case) and `query`, or -1. Costs one step per parameter of the query. */
  find(method: string, query: QueryMultimap): number {
    const methodId = this.#methods.indexOf(method);
    if (methodId < 0) return -1;
    const pairIds = this.#pairsOf(query, false);
    return pairIds ? this.#lookup(methodId, pairIds, hashOf(methodId, pairIds)).position : -1;
  }

  /** The recordings of the key at `position`, in recorded order. */
  recordingsOf(position: number): number[] {
    const first = this.#keyFirst.get(position);
    const more = this.#keyMore.get(position);
    return more ? [first, ...more] : [first];
  }

  /** The first recording of the key at `position`. */
  firstOf(position: number): number {
    return this.#keyFirst.get(position);
  }

  /** The method (upper case) of the key at `position`. */
  methodOf(position: number): string {
    return this.#methods[this.#keyMethod.get(position)]!;
  }

  /** The query of the key at `position`, as a fresh multimap. */
  queryOf(position: number): QueryMultimap {
    const query: QueryMultimap = Object.create(null) as QueryMultimap;
    for (const pairId of this.#pairsAt(position)) {
      const nameId = this.#pairName.get(pairId);
      const value = this.#pairValue.get(pairId);
      query[this.#names[nameId]!] = value >= 0 ? [this.#single[nameId]!.text(value)] : this.#repeatedValues[-1 - value]!.slice();
    }
    return query;
  }

  /**
   * The `limit` keys closest to `requested` (fewest differing parameters first; ties in order of
   * first recording), whatever their method, each with its count of differing parameters.
   */
  closest(requested: QueryMultimap, limit: number): RankedKey[] {
    if (!(limit > 0) || this.keyCount === 0) return [];
    if (++this.#generation === 0x1_0000_0000) {
      this.#stamp.fill(0);
      this.#generation = 1;
    }
    const generation = this.#generation;
    const score = this.#score;
    const stamp = this.#stamp;
    const touched: number[] = [];
    const touchOne = (position: number, delta: number) => {
      if (stamp[position] !== generation) {
        stamp[position] = generation;
        score[position] = 0;
        touched.push(position);
      }
      score[position] = score[position]! + delta;
    };
    const touch = (postings: Postings | undefined, delta: number) => {
      if (postings === undefined) return;
      if (typeof postings === 'number') touchOne(postings, delta);
      else if (postings instanceof IntList) for (let i = 0; i < postings.length; i++) touchOne(postings.get(i), delta);
      else for (const position of postings) touchOne(position, delta);
    };
    // Walk each known parameter of the request on its smaller side (see the module comment).
    const names = Object.keys(requested);
    const known: number[] = [];
    const walkedMatches: number[] = [];
    for (const name of names) {
      const nameId = this.#nameIds.get(name);
      if (nameId === undefined) continue;
      known.push(nameId);
      const pairId = this.#pairId(nameId, requested[name]!, false);
      const matching = pairId === undefined ? undefined : this.#postingsOf(pairId);
      if (2 * postingsLength(matching) <= this.#keysWithName[nameId]!) {
        // Every key with the parameter counts a mismatch, less one for each that holds the value.
        walkedMatches.push(nameId);
        touch(matching, -1);
      } else {
        const others = this.#pairsOfName[nameId]!;
        for (let i = 0; i < others.length; i++) if (others.get(i) !== pairId) touch(this.#postingsOf(others.get(i)), 1);
      }
    }
    // Per group: the parameters on one side only, plus a mismatch for each match-walked parameter it has.
    const untouched = this.#groups.map((group) => {
      let count = group.names.size + names.length;
      for (const nameId of known) if (group.names.has(nameId)) count -= 2;
      for (const nameId of walkedMatches) if (group.names.has(nameId)) count++;
      return count;
    });
    const ranking = new Ranking(limit);
    for (const position of touched) ranking.offer(untouched[this.#keyGroup.get(position)]! + score[position]!, position);
    // Keys no walk touched count their group's number: only the first ones of each group can rank.
    const order = this.#groups.map((_, id) => id).sort((a, b) => untouched[a]! - untouched[b]!);
    for (const groupId of order) {
      const count = untouched[groupId]!;
      if (ranking.excludes(count)) break;
      const { members } = this.#groups[groupId]!;
      for (let i = 0, found = 0; i < members.length && found < ranking.limit; i++) {
        const position = members.get(i);
        if (stamp[position] === generation) continue;
        found++;
        ranking.offer(count, position);
      }
    }
    return ranking.result();
  }
}
