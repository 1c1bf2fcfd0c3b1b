import type { Finding } from '../findings/index.js';
import type { RawPair } from '../normalise/index.js';
import type { JournalView } from './journal-view.js';

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
  /** The scenario that answered (its stub, its fault or its 404), or `null`. */
  scenario: string | null;
  status: number;
  durationMs: number;
  findings: readonly Finding[];
  /** How a replay matched (`exact`, `nearest`, `fallback`; the recorder's `recorded`, `passthrough`), or `null` when a scenario answered. */
  match: string | null;
  /** The fault the routes planned (`delay`, `status`, …, `reset`, `hang`), or `null`: what the client met, answered or not. */
  fault: string | null;
  /** In replay: the recording file that answered (`meta-cp/0a1b2c3d4e5f-000.json`), when one did. */
  recording?: string;
  /** Which step of a sequence (scenario stub or replayed recordings) the answer was, `"2/3"` (see `stepText`), when it was one. */
  step?: string;
  /** Under `serve --fuzz`: the case of the generated answer (`42:meta/plugin:3`; see docs/fuzz.md). */
  fuzz?: string;
  /**
   * The wait planned before the answer, in milliseconds (a `delay` fault, a stub's or a recording's
   * latency), or before the connection was closed (a `hang`, a `reset` after a `delay`), when there
   * was one: with `status` 0 and an answer planned, the wait the client gave up during.
   */
  delayMs?: number;
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
  /** The response body text as sent, cut at `JOURNAL_BODY_LIMIT` characters for display (`''` when none). */
  responseBody: string;
  /** The whole response body as sent, redacted (see `JournalView.answerBody`): what a start-up's bundle holds. */
  answerBody: JournalView['answerBody'];
}

/** Default number of requests the journal keeps. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** Default most bytes of bodies the journal keeps in all (32 MiB); the oldest exchanges go first beyond it. */
const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

/** An exchange as {@link Journal.add} takes it: without its id, which the journal gives. */
export type NewExchange = Omit<JournalExchange, 'entry'> & { entry: Omit<JournalEntry, 'id'> };

/**
 * An exchange the journal makes only when it is first read. `build` is called at most once;
 * `release`, when given, once the journal no longer needs the object (built, forgotten or cleared).
 */
export interface DeferredExchange {
  build(): NewExchange;
  release?(): void;
}

/** One kept exchange: its id, what it holds of bodies in bytes (as told to `add`), and the exchange, made when first read. */
interface Kept {
  id: number;
  bytes: number;
  deferred: DeferredExchange | undefined;
  built: JournalExchange | undefined;
}

function read(kept: Kept): JournalExchange {
  if (!kept.built) {
    const made = kept.deferred!.build();
    kept.built = { ...made, entry: { id: kept.id, ...made.entry } };
    forget(kept);
  }
  return kept.built;
}

/** Releases an exchange not made yet (or just made): the journal no longer needs its maker. */
function forget(kept: Kept): void {
  kept.deferred?.release?.();
  kept.deferred = undefined;
}

/**
 * The journal: the last `limit` requests to operations, oldest first, and at most `maxBytes` of
 * bodies (memory stays flat however long the server runs). Listeners hear every new entry (for live views).
 */
export class Journal {
  readonly limit: number;
  readonly maxBytes: number;
  /** Oldest first; ids are consecutive. */
  #kept: Kept[] = [];
  #nextId = 1;
  #bytes = 0;
  #listeners = new Set<(exchange: JournalExchange) => void>();

  /** @param maxBytes the most bytes of bodies kept in all (see {@link DEFAULT_JOURNAL_BYTES}). */
  constructor(limit = DEFAULT_JOURNAL_SIZE, maxBytes = DEFAULT_JOURNAL_BYTES) {
    this.limit = limit;
    this.maxBytes = maxBytes;
  }

  /**
   * Adds an exchange, or what makes it when it is first read (a {@link DeferredExchange}: a request
   * that no one looks at pays only for keeping its facts), and tells the listeners. Returns the id it gets. `bytes` is what it holds of bodies (default: its
   * `responseBody` length when given as an object): beyond `maxBytes` in all, the oldest exchanges
   * are forgotten.
   */
  add(
    exchange: NewExchange | DeferredExchange,
    bytes = 'build' in exchange ? 0 : exchange.responseBody.length,
  ): number {
    const deferred = 'build' in exchange ? exchange : { build: () => exchange };
    const kept: Kept = { id: this.#nextId++, bytes, deferred, built: undefined };
    if (this.limit > 0) {
      this.#kept.push(kept);
      this.#bytes += bytes;
      while (this.#kept.length > this.limit || (this.#bytes > this.maxBytes && this.#kept.length > 1))
        this.#dropOldest();
    }
    if (this.#listeners.size) {
      const built = read(kept);
      for (const listener of this.#listeners) listener(built);
    } else if (this.limit <= 0) forget(kept);
    return kept.id;
  }

  #dropOldest(): void {
    const oldest = this.#kept.shift()!;
    this.#bytes -= oldest.bytes;
    forget(oldest);
  }

  /** The kept exchanges, oldest first, optionally only one operation's or one device's (`_sdevid`). */
  exchanges(filter: { operation?: string; sdevid?: string } = {}): JournalExchange[] {
    return this.#kept
      .map(read)
      .filter(
        (x) =>
          (filter.operation === undefined || x.entry.operation === filter.operation) &&
          (filter.sdevid === undefined || x.entry.query._sdevid?.includes(filter.sdevid)),
      );
  }

  /** One exchange by id, if still kept. */
  get(id: number): JournalExchange | undefined {
    // Ids are consecutive, so the id says where it is.
    const kept = this.#kept[id - (this.#kept[0]?.id ?? 0)];
    return kept && read(kept);
  }

  /** The id of the newest kept exchange, or `undefined` when none is kept. */
  get newestId(): number | undefined {
    return this.#kept.at(-1)?.id;
  }

  /** Forgets every request. */
  clear(): void {
    this.#kept.forEach(forget);
    this.#kept = [];
    this.#bytes = 0;
  }

  /** Calls `listener` for every new exchange; returns the function that stops it. */
  subscribe(listener: (exchange: JournalExchange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
