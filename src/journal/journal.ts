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
  findings: Finding[];
  /** How a replay matched (`exact`, `nearest`, `fallback`), or `null` when a scenario answered. */
  match: string | null;
  /** The fault applied, or `null`. */
  fault: string | null;
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

/**
 * The journal: the last `limit` requests to operations, oldest first, in a bounded ring (memory
 * stays flat however long the server runs). Listeners hear every new entry (for live views).
 */
export class Journal {
  readonly limit: number;
  #ring: JournalExchange[] = [];
  #nextId = 1;
  #listeners = new Set<(exchange: JournalExchange) => void>();

  constructor(limit = DEFAULT_JOURNAL_SIZE) {
    this.limit = limit;
  }

  /** Adds an exchange (its `entry.id` is assigned here) and tells the listeners. */
  add(exchange: Omit<JournalExchange, 'entry'> & { entry: Omit<JournalEntry, 'id'> }): JournalExchange {
    const stored: JournalExchange = { ...exchange, entry: { id: this.#nextId++, ...exchange.entry } };
    this.#ring.push(stored);
    if (this.#ring.length > this.limit) this.#ring.splice(0, this.#ring.length - this.limit);
    for (const listener of this.#listeners) listener(stored);
    return stored;
  }

  /** The kept exchanges, oldest first, optionally only one operation's or one device's (`_sdevid`). */
  exchanges(filter: { operation?: string; sdevid?: string } = {}): JournalExchange[] {
    return this.#ring.filter(
      (x) => (filter.operation === undefined || x.entry.operation === filter.operation) && (filter.sdevid === undefined || x.entry.query._sdevid?.includes(filter.sdevid)),
    );
  }

  /** One exchange by id, if still kept. */
  get(id: number): JournalExchange | undefined {
    return this.#ring.find((x) => x.entry.id === id);
  }

  /** Forgets every request. */
  clear(): void {
    this.#ring = [];
  }

  /** Calls `listener` for every new exchange; returns the function that stops it. */
  subscribe(listener: (exchange: JournalExchange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
