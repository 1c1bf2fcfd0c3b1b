import type { Finding } from '../findings/index.js';
import type { RawPair } from '../normalise/index.js';

/**
 * One request to an operation, as the journal keeps it. `time` is ISO 8601; `durationMs` is in
 * milliseconds; `status` is 0 when no answer was sent (a reset, a hang the client gave up on).
 * `query` is the multimap of decoded values with secrets redacted; identifiers are kept, so QA can
 * filter by device (`_sdevid`).
 */
export interface JournalEntry {
  id: number;
  time: string;
  operation: string;
  query: Record<string, string[]>;
  /** The scenario (or recording) that answered, or `null`. */
  scenario: string | null;
  status: number;
  durationMs: number;
  findings: readonly Finding[];
  /** How a replay matched (`exact`, `nearest`, `fallback`), or `null` when a scenario answered. */
  match: string | null;
  /** The fault applied, or `null`. */
  fault: string | null;
  /** In replay: the recording file that answered (`meta-cp/0a1b2c3d4e5f-000.json`), when one did. */
  recording?: string;
  /** Which step of a sequence (scenario stub or replayed recordings) the answer was, `"2/3"` (see `stepText`), when it was one. */
  step?: string;
  /** Under `serve --fuzz`: the case of the generated answer (`42:meta/plugin:3`; see docs/fuzz.md). */
  fuzz?: string;
}

/** What the journal keeps besides the entry, for the HAR export and the detail view. */
export interface JournalExchange {
  entry: JournalEntry;
  method: string;
  path: string;
  /** Raw query pairs as sent, secrets redacted. */
  rawQuery: RawPair[];
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** The response body text as sent (`''` when none). */
  responseBody: string;
}

/** Default number of requests the journal keeps. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** Default most bytes of bodies the journal keeps in all (32 MiB); the oldest exchanges go first beyond it. */
const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

/**
 * The journal: the last `limit` requests to operations, oldest first, in a bounded ring (memory
 * stays flat however long the server runs). Listeners hear every new entry (for live views).
 */
/** An exchange as {@link Journal.add} takes it: without its id, which the journal gives. */
export type NewExchange = Omit<JournalExchange, 'entry'> & { entry: Omit<JournalEntry, 'id'> };

/**
 * An exchange the journal makes only when it is first read. `build` is called at most once;
 * `release`, when given, once the journal no longer needs the object (built, forgotten or cleared),
 * so that its maker can reuse it for a later exchange: a journal of reused records keeps nothing
 * new per request, so the young generation of V8 does not grow with what it keeps.
 */
export interface DeferredExchange {
  build(): NewExchange;
  release?(): void;
}

/** One place of the ring, reused when the ring comes round: the exchange it holds, with the id given at `add`. */
interface Slot {
  id: number;
  /** What it holds of bodies, in bytes (as told to `add`). */
  bytes: number;
  /** The exchange until it is first read. */
  deferred: DeferredExchange | (() => NewExchange) | undefined;
  built: JournalExchange | undefined;
}

function read(slot: Slot): JournalExchange {
  if (!slot.built) {
    const deferred = slot.deferred!;
    const made = typeof deferred === 'function' ? deferred() : deferred.build();
    slot.built = { ...made, entry: { id: slot.id, ...made.entry } };
    slot.deferred = undefined;
    if (typeof deferred !== 'function') deferred.release?.();
  }
  return slot.built;
}

function isExchange(exchange: NewExchange | DeferredExchange | (() => NewExchange)): exchange is NewExchange {
  return typeof exchange !== 'function' && (exchange as Partial<DeferredExchange>).build === undefined;
}

/** Empties a slot, releasing an exchange it held unread. */
function empty(slot: Slot): void {
  const { deferred } = slot;
  slot.deferred = undefined;
  slot.built = undefined;
  slot.bytes = 0;
  if (deferred !== undefined && typeof deferred !== 'function') deferred.release?.();
}

export class Journal {
  readonly limit: number;
  // A ring: `#ring[#start]` is the oldest of `#size` kept exchanges; adding one is O(1). Its slots
  // are made once, then reused.
  #ring: Slot[] = [];
  #start = 0;
  #size = 0;
  #nextId = 1;
  #bytes = 0;
  readonly maxBytes: number;
  #listeners = new Set<(exchange: JournalExchange) => void>();

  /** @param maxBytes the most bytes of bodies kept in all (see {@link DEFAULT_JOURNAL_BYTES}). */
  constructor(limit = DEFAULT_JOURNAL_SIZE, maxBytes = DEFAULT_JOURNAL_BYTES) {
    this.limit = limit;
    this.maxBytes = maxBytes;
  }

  /**
   * Adds an exchange, or what makes it when it is first read (a function, or a
   * {@link DeferredExchange}: a request that no one looks at pays only for keeping its facts), and
   * tells the listeners. Returns the id it gets. `bytes` is what it holds of bodies (default: its
   * `responseBody` length when given as an object): beyond `maxBytes` in all, the oldest exchanges
   * are forgotten.
   */
  add(
    exchange: NewExchange | DeferredExchange | (() => NewExchange),
    bytes = isExchange(exchange) ? exchange.responseBody.length : 0,
  ): number {
    const id = this.#nextId++;
    const deferred = isExchange(exchange) ? () => exchange : exchange;
    if (this.limit <= 0) {
      if (this.#listeners.size) this.#tell(read({ id, bytes, deferred, built: undefined }));
      else if (typeof deferred !== 'function') deferred.release?.();
      return id;
    }
    if (this.#size === this.limit) this.#dropOldest();
    const at = (this.#start + this.#size++) % this.limit;
    let slot = this.#ring[at];
    if (slot) {
      slot.id = id;
      slot.bytes = bytes;
      slot.deferred = deferred;
    } else this.#ring[at] = slot = { id, bytes, deferred, built: undefined };
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes && this.#size > 1) this.#dropOldest();
    if (this.#listeners.size) this.#tell(read(slot));
    return id;
  }

  #tell(built: JournalExchange): void {
    for (const listener of this.#listeners) listener(built);
  }

  #dropOldest(): void {
    const slot = this.#ring[this.#start]!;
    this.#bytes -= slot.bytes;
    empty(slot);
    this.#start = (this.#start + 1) % this.limit;
    this.#size--;
  }

  /** The kept exchanges, oldest first, optionally only one operation's or one device's (`_sdevid`). */
  exchanges(filter: { operation?: string; sdevid?: string } = {}): JournalExchange[] {
    const out: JournalExchange[] = [];
    for (let i = 0; i < this.#size; i++) {
      const x = read(this.#ring[(this.#start + i) % this.limit]!);
      if (
        (filter.operation === undefined || x.entry.operation === filter.operation) &&
        (filter.sdevid === undefined || x.entry.query._sdevid?.includes(filter.sdevid))
      )
        out.push(x);
    }
    return out;
  }

  /** One exchange by id, if still kept. */
  get(id: number): JournalExchange | undefined {
    const oldest = this.#size ? this.#ring[this.#start]!.id : 0;
    const at = id - oldest;
    // Ids are consecutive in the ring, so the id says where it is.
    return at >= 0 && at < this.#size ? read(this.#ring[(this.#start + at) % this.limit]!) : undefined;
  }

  /** The id of the newest kept exchange, or `undefined` when none is kept. */
  get newestId(): number | undefined {
    return this.#size ? this.#ring[(this.#start + this.#size - 1) % this.limit]!.id : undefined;
  }

  /** Forgets every request. */
  clear(): void {
    for (const slot of this.#ring) empty(slot);
    this.#start = 0;
    this.#size = 0;
    this.#bytes = 0;
  }

  /** Calls `listener` for every new exchange; returns the function that stops it. */
  subscribe(listener: (exchange: JournalExchange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
