import type { AnalyticsFinding } from './record-checks.js';

/** One received analytics record: a running id, when it arrived (ISO 8601), the record and its findings. */
export interface AnalyticsEntry {
  id: number;
  time: string;
  record: unknown;
  findings: AnalyticsFinding[];
}

/** The most bytes of one record (its JSON text): a larger one is refused with 413 (docs/security.md, "Bounds"). */
export const MAX_ANALYTICS_RECORD_BYTES = 64 * 1024;

/** The most bytes of records the store keeps in all (their JSON texts and their findings'); beyond them the oldest go. */
const MAX_ANALYTICS_BYTES = 8 * 1024 * 1024;

/** The most records one listing gives (`GET /__mockvideo/analytics?limit=`), and its default. */
const MAX_ANALYTICS_PAGE = 1000;
const DEFAULT_ANALYTICS_PAGE = 200;

/** The most bytes of records one listing holds (their JSON texts), whatever its `limit`. */
const MAX_ANALYTICS_PAGE_BYTES = 2 * 1024 * 1024;

/** One page of the records: `records` oldest first; `next` the id to pass as `after` for the rest (`null`: none left); `total` kept. */
export interface AnalyticsPage {
  records: AnalyticsEntry[];
  total: number;
  next: number | null;
}

/**
 * The analytics records received, newest last, keeping at most `limit` (default 1,000) and at most
 * `maxBytes` of records (default {@link MAX_ANALYTICS_BYTES}): the oldest go first. Separate from
 * the request journal.
 */
export class AnalyticsStore {
  readonly limit: number;
  readonly maxBytes: number;
  /** Oldest first, each with its size in bytes. */
  #kept: Array<{ entry: AnalyticsEntry; bytes: number }> = [];
  #bytes = 0;
  #next = 1;

  constructor(limit = 1000, maxBytes = MAX_ANALYTICS_BYTES) {
    this.limit = limit;
    this.maxBytes = maxBytes;
  }

  /**
   * Keeps `record` with its `findings`; drops the oldest when full. `bytes` is its size (default:
   * its JSON text's length; the sink adds its findings'); callers refuse records over
   * {@link MAX_ANALYTICS_RECORD_BYTES} first.
   * Returns the entry.
   */
  add(
    record: unknown,
    findings: AnalyticsFinding[],
    now: Date = new Date(),
    bytes = JSON.stringify(record)?.length ?? 0,
  ): AnalyticsEntry {
    const entry = { id: this.#next++, time: now.toISOString(), record, findings };
    this.#kept.push({ entry, bytes });
    this.#bytes += bytes;
    while (this.#kept.length > this.limit || (this.#bytes > this.maxBytes && this.#kept.length > 1))
      this.#bytes -= this.#kept.shift()!.bytes;
    return entry;
  }

  /**
   * One bounded page of the kept entries, oldest first: with `after`, those of a larger id (the
   * next page is `after: next`); without, the newest. At most `limit` entries (capped at
   * {@link MAX_ANALYTICS_PAGE}) and {@link MAX_ANALYTICS_PAGE_BYTES} of records.
   */
  page(after: number | undefined, limit = DEFAULT_ANALYTICS_PAGE): AnalyticsPage {
    const most = Math.max(1, Math.min(MAX_ANALYTICS_PAGE, Math.floor(limit) || DEFAULT_ANALYTICS_PAGE));
    const kept = this.#kept;
    const total = kept.length;
    // Newest first without `after`, else from the first id above it; as many as fit.
    const from = after === undefined ? total - 1 : kept.findIndex((k) => k.entry.id > after);
    const step = after === undefined ? -1 : 1;
    const picked: AnalyticsEntry[] = [];
    let bytes = 0;
    let i = from < 0 && after !== undefined ? total : from;
    for (
      ;
      i >= 0 && i < total && picked.length < most && bytes + kept[i]!.bytes <= MAX_ANALYTICS_PAGE_BYTES;
      i += step
    ) {
      bytes += kept[i]!.bytes;
      picked.push(kept[i]!.entry);
    }
    if (after === undefined) return { records: picked.reverse(), total, next: null };
    return { records: picked, total, next: i < total ? (kept[i - 1]?.entry.id ?? after) : null };
  }

  /** Forgets every entry (ids keep counting). */
  clear(): void {
    this.#kept = [];
    this.#bytes = 0;
  }
}
