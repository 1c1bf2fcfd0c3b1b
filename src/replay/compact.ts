/**
 * Compact storage for the replay index: growing lists of integers and a pool of short texts, held
 * in typed arrays rather than as JavaScript objects. A replay index of 100,000 recordings then adds
 * little to the garbage-collected heap, whose size the garbage collector multiplies when it decides
 * how far the heap may grow. Any runtime: typed arrays only.
 * @module
 */

/**
 * The plain-data form of an {@link IntList}: its items are the first `length` of `data`. Plain data
 * (typed arrays, numbers, strings, arrays, maps) copies between threads with `postMessage`, and
 * `data`'s buffer can be transferred.
 */
export interface IntListData {
  data: Int32Array<ArrayBuffer>;
  length: number;
}

/** A growing list of 32-bit integers in an `Int32Array` (4 bytes an item; grows by half). */
export class IntList {
  #data: Int32Array<ArrayBuffer>;
  #length = 0;

  constructor(capacity = 16) {
    this.#data = new Int32Array(Math.max(1, capacity));
  }

  /** The list over `data` (not copied: it is the list's own from now on). */
  static of(data: IntListData): IntList {
    const list = new IntList(1);
    list.#data = data.data;
    list.#length = data.length;
    return list;
  }

  /** Its plain-data form (not a copy: transfer its buffer only when the list is used no more). */
  data(): IntListData {
    return { data: this.#data, length: this.#length };
  }

  /** The number of items. */
  get length(): number {
    return this.#length;
  }

  /** The item at `at` (0-based; `at` must be below `length`). */
  get(at: number): number {
    return this.#data[at]!;
  }

  /** Replaces the item at `at` (below `length`). */
  set(at: number, value: number): void {
    this.#data[at] = value;
  }

  /** Appends an item; returns its place. */
  push(value: number): number {
    if (this.#length === this.#data.length) {
      const data = new Int32Array(Math.ceil(this.#data.length * 1.5) + 1);
      data.set(this.#data);
      this.#data = data;
    }
    this.#data[this.#length] = value;
    return this.#length++;
  }
}

/** The plain-data form of a {@link TextPool}: `used` bytes of `bytes`, and where each text starts. */
export interface TextPoolData {
  bytes: Uint8Array<ArrayBuffer>;
  used: number;
  starts: IntListData;
}

/**
 * Short texts (recording names, parameter values) in one growing byte array; each has a number.
 * Each UTF-16 unit below 0xFF takes one byte, others three (0xFF, then the unit): exact for any
 * JavaScript string (lone surrogates included), one byte a character for the usual ASCII.
 */
export class TextPool {
  #bytes = new Uint8Array(64);
  #used = 0;
  #starts = new IntList(16);

  /** The pool over `data` (not copied). */
  static of(data: TextPoolData): TextPool {
    const pool = new TextPool();
    pool.#bytes = data.bytes;
    pool.#used = data.used;
    pool.#starts = IntList.of(data.starts);
    return pool;
  }

  /** Its plain-data form (not a copy), as {@link IntList.data}. */
  data(): TextPoolData {
    return { bytes: this.#bytes, used: this.#used, starts: this.#starts.data() };
  }

  /** The number of texts. */
  get length(): number {
    return this.#starts.length;
  }

  /** Stores `text`; returns its number (0, 1, 2… in the order added). */
  add(text: string): number {
    if (this.#used + text.length * 3 > this.#bytes.length) {
      const bytes = new Uint8Array(Math.ceil((this.#used + text.length * 3) * 1.5));
      bytes.set(this.#bytes.subarray(0, this.#used));
      this.#bytes = bytes;
    }
    const start = this.#used;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0xff) this.#bytes[this.#used++] = unit;
      else {
        this.#bytes[this.#used++] = 0xff;
        this.#bytes[this.#used++] = unit >>> 8;
        this.#bytes[this.#used++] = unit & 0xff;
      }
    }
    return this.#starts.push(start);
  }

  #end(id: number): number {
    return id + 1 < this.#starts.length ? this.#starts.get(id + 1) : this.#used;
  }

  /** The text numbered `id`. */
  get(id: number): string {
    const units: number[] = [];
    for (let at = this.#starts.get(id), end = this.#end(id); at < end; at++) {
      const byte = this.#bytes[at]!;
      units.push(byte < 0xff ? byte : (this.#bytes[++at]! << 8) | this.#bytes[++at]!);
    }
    let text = '';
    for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.slice(i, i + 4096));
    return text;
  }

  /** True when text `id` is `text`. */
  equals(id: number, text: string): boolean {
    let at = this.#starts.get(id);
    const end = this.#end(id);
    for (let i = 0; i < text.length; i++, at++) {
      if (at >= end) return false;
      const byte = this.#bytes[at]!;
      const unit = byte < 0xff ? byte : (this.#bytes[++at]! << 8) | this.#bytes[++at]!;
      if (unit !== text.charCodeAt(i)) return false;
    }
    return at === end;
  }
}

/** The plain-data form of a {@link TextMap}. */
export interface TextMapData {
  texts: TextPoolData;
  values: IntListData;
  hashes: IntListData;
  slots: Int32Array<ArrayBuffer>;
}

/**
 * A map from texts to numbers kept in typed arrays (a {@link TextPool} and an open-addressing
 * table): a parameter with a value per recording adds no JavaScript string or map entry per value.
 * Texts are numbered 0, 1, 2… in the order added ({@link TextMap.text} gives one back).
 */
export class TextMap {
  #texts = new TextPool();
  #values = new IntList(16);
  #hashes = new IntList(16);
  /** Text numbers (-1: empty), at most half full. */
  #slots = new Int32Array(32).fill(-1);

  /** The map over `data` (not copied). */
  static of(data: TextMapData): TextMap {
    const map = new TextMap();
    map.#texts = TextPool.of(data.texts);
    map.#values = IntList.of(data.values);
    map.#hashes = IntList.of(data.hashes);
    map.#slots = data.slots;
    return map;
  }

  /** Its plain-data form (not a copy), as {@link IntList.data}. */
  data(): TextMapData {
    return { texts: this.#texts.data(), values: this.#values.data(), hashes: this.#hashes.data(), slots: this.#slots };
  }

  /** The number of texts. */
  get size(): number {
    return this.#texts.length;
  }

  /** The slot of `text` (its hash `hash`): the one holding it, or the empty one it would take. */
  #slot(text: string, hash: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.#slots[slot]!;
      if (id === -1 || (this.#hashes.get(id) === hash && this.#texts.equals(id, text))) return slot;
    }
  }

  /** The number stored for `text`, or `undefined`. */
  get(text: string): number | undefined {
    const id = this.#slots[this.#slot(text, hashText(text))]!;
    return id === -1 ? undefined : this.#values.get(id);
  }

  /** Stores `value` for `text` (which must not be in the map yet); returns the text's number. */
  add(text: string, value: number): number {
    const hash = hashText(text);
    const slot = this.#slot(text, hash);
    const id = this.#texts.add(text);
    this.#values.push(value);
    this.#hashes.push(hash);
    this.#slots[slot] = id;
    if (2 * this.size > this.#slots.length) this.#slots = grownSlots(this.#slots.length * 2, this.size, (other) => this.#hashes.get(other));
    return id;
  }

  /** The text numbered `id`. */
  text(id: number): string {
    return this.#texts.get(id);
  }
}

/**
 * The slot table of an open-addressing hash table (linear probing, `-1` for empty) rebuilt at
 * `length` slots (a power of two) for entries `0 … count - 1`, each placed by `hashOf(entry)`.
 */
export function grownSlots(length: number, count: number, hashOf: (entry: number) => number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(length).fill(-1);
  const mask = length - 1;
  for (let entry = 0; entry < count; entry++) {
    let at = hashOf(entry) & mask;
    while (slots[at] !== -1) at = (at + 1) & mask;
    slots[at] = entry;
  }
  return slots;
}

/** FNV-1a over the UTF-16 units of a text, as a signed 32-bit integer. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/**
 * The buffers of the typed arrays in plain data (objects, arrays; not inside maps), each once: the
 * transfer list for `postMessage` of an index's data (e.g. `RecordingIndex.data`).
 */
export function buffersOf(data: unknown): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) buffers.add(value.buffer as ArrayBuffer);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value && typeof value === 'object' && !(value instanceof Map)) for (const item of Object.values(value)) visit(item);
  };
  visit(data);
  return [...buffers];
}
