import type { AnalyticsFinding } from './record-checks.js';

/** One received analytics record: a running id, when it arrived (ISO 8601), the record and its findings. */
export interface AnalyticsEntry {
  id: number;
  time: string;
  record: unknown;
  findings: AnalyticsFinding[];
}

/**
 * The analytics records received, newest last, keeping at most `limit` (default 1,000): a ring
 * buffer, separate from the request journal.
 */
export class AnalyticsStore {
  readonly limit: number;
  readonly #entries: AnalyticsEntry[] = [];
  #next = 1;

  constructor(limit = 1000) {
    this.limit = limit;
  }

  /** Keeps `record` with its `findings`; drops the oldest when full. Returns the entry. */
  add(record: unknown, findings: AnalyticsFinding[], now: Date = new Date()): AnalyticsEntry {
    const entry = { id: this.#next++, time: now.toISOString(), record, findings };
    this.#entries.push(entry);
    if (this.#entries.length > this.limit) this.#entries.shift();
    return entry;
  }

  /** Every kept entry, oldest first. */
  list(): AnalyticsEntry[] {
    return [...this.#entries];
  }

  /** Forgets every entry (ids keep counting). */
  clear(): void {
    this.#entries.length = 0;
  }
}
