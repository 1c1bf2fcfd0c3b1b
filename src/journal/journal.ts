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
export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

/**
 * The journal: the last `limit` requests to operations, oldest first, in a bounded ring (memory
 * stays flat however long the server runs). Listeners hear every new entry (for live views).
 */
/** An exchange as {@link Journal.add} takes it: without its id, which the journal gives. */
export type NewExchange = Omit<JournalExchange, 'entry'> & { entry: Omit<JournalEntry, 'id'> };

/** One kept exchange: built from `make` when first read (then kept), with the id given at `add`. */
interface Slot {
  id: number;
  /** What it holds of bodies, in bytes (as told to `add`). */
  bytes: number;
  make: (() => NewExchange) | undefined;
  built: JournalExchange | undefined;
}

function read(slot: Slot): JournalExchange {
  if (!slot.built) {
    const made = slot.make!();
    slot.built = { ...made, entry: { id: slot.id, ...made.entry } };
    slot.make = undefined;
  }
  return slot.built;
}

export class Journal {
  readonly limit: number;
  // A ring: `#ring[#start]` is the oldest of `#size` kept exchanges; adding one is O(1).
  #ring: Array<Slot | undefined>;
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
    this.#ring = new Array<Slot | undefined>(limit);
  }

  /**
   * Adds an exchange, or a function that makes it when it is first read (so a request that no one
   * looks at pays only for keeping its facts), and tells the listeners. Returns the id it gets.
   * `bytes` is what it holds of bodies (default: its `responseBody` length when given as an object):
   * beyond `maxBytes` in all, the oldest exchanges are forgotten.
   */
  add(exchange: NewExchange | (() => NewExchange), bytes = typeof exchange === 'function' ? 0 : exchange.responseBody.length): number {
    const slot: Slot = { id: this.#nextId++, bytes, make: typeof exchange === 'function' ? exchange : () => exchange, built: undefined };
    if (this.limit > 0) {
      if (this.#size === this.limit) this.#dropOldest();
      this.#ring[(this.#start + this.#size++) % this.limit] = slot;
      this.#bytes += bytes;
      while (this.#bytes > this.maxBytes && this.#size > 1) this.#dropOldest();
    }
    if (this.#listeners.size) {
      const built = read(slot);
      for (const listener of this.#listeners) listener(built);
    }
    return slot.id;
  }

  #dropOldest(): void {
    this.#bytes -= this.#ring[this.#start]!.bytes;
    this.#ring[this.#start] = undefined;
    this.#start = (this.#start + 1) % this.limit;
    this.#size--;
  }

  /** The kept exchanges, oldest first, optionally only one operation's or one device's (`_sdevid`). */
  exchanges(filter: { operation?: string; sdevid?: string } = {}): JournalExchange[] {
    const out: JournalExchange[] = [];
    for (let i = 0; i < this.#size; i++) {
      const x = read(this.#ring[(this.#start + i) % this.limit]!);
      if ((filter.operation === undefined || x.entry.operation === filter.operation) && (filter.sdevid === undefined || x.entry.query._sdevid?.includes(filter.sdevid))) out.push(x);
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
    this.#ring = new Array<Slot | undefined>(this.limit);
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
