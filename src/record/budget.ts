/**
 * The in-flight budget of the recorder: how many bytes of upstream bodies its exchanges hold in
 * memory at once. An exchange is admitted with a reservation (the size its operation's last answer
 * had), counts the bytes it comes to hold beyond it (received, decoded), and gives them back once
 * its recording is written or dropped and its client has the whole answer (a slow reader's socket
 * holds the body until then). Over the budget, new exchanges wait before they are forwarded: the
 * recorder holds back, it never answers for the upstream (issue 34.4: a 503 of ours where the
 * upstream said 200 is a lie to the app).
 * @module
 */

/**
 * The default most bytes of upstream bodies held at once by all exchanges in flight (8 MiB: a body
 * larger than that still goes, alone). `record` of 6 clients × 300 exchanges of 1 MiB peaked at
 * 276–285 MiB RSS with 16 MiB, 258–266 MiB with 8 MiB (with 128 MiB, a backlog of 128 recordings
 * waited for the disk: 385 MiB once nothing else held the answers); answers of the six operations
 * are kilobytes, so 8 MiB holds back only bursts of large ones (docs/recording-safety.md).
 */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 8 * 1024 * 1024;

/** What one admitted exchange holds of the budget (see {@link InFlightBudget.admit}). */
export interface BudgetShare {
  /** Counts `bytes` more as held by this exchange (beyond its reservation). */
  take: (bytes: number) => void;
  /** One of the exchange's ends: once all have come, everything it held is given back. Later calls do nothing. */
  release: () => void;
  /** The bytes this exchange took (received, decoded), whatever it reserved. */
  readonly taken: number;
}

/**
 * Bytes held against a limit, with a queue of exchanges waiting to start. An exchange is admitted
 * when its reservation fits under `limit`, or when nothing is held at all (so one larger than the
 * budget still goes, alone); those waiting start in order. Exchanges already forwarded are never
 * stopped: what they receive beyond their reservation can pass `limit`; no new one starts until the
 * bytes are back under it.
 */
export class InFlightBudget {
  readonly limit: number;
  #held = 0;
  readonly #waiting: Array<{ reserve: () => number; parts: number; start: (share: BudgetShare) => void }> = [];

  /** @param limit bytes, above 0. */
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes held now by all exchanges. */
  get held(): number {
    return this.#held;
  }

  /**
   * Admits an exchange that ends in `parts` parts (see {@link BudgetShare.release}) and reserves
   * `reserve()` bytes, asked when it is its turn (what is known of its size may have grown while it
   * waited): its share at once when it fits, else a promise of it, kept once enough was given back
   * (in the order asked).
   */
  admit(reserve: () => number, parts: number): BudgetShare | Promise<BudgetShare> {
    if (!this.#waiting.length) {
      const bytes = reserve();
      if (this.#fits(bytes)) return this.#share(bytes, parts);
    }
    return new Promise((start) => this.#waiting.push({ reserve, parts, start }));
  }

  #fits(reserve: number): boolean {
    return this.#held === 0 || this.#held + reserve <= this.limit;
  }

  #share(reserve: number, parts: number): BudgetShare {
    this.#held += reserve;
    let counted = reserve;
    let taken = 0;
    let left = parts;
    return {
      take: (bytes) => {
        taken += bytes;
        if (taken > counted) {
          this.#held += taken - counted;
          counted = taken;
        }
      },
      release: () => {
        if (--left === 0) this.#give(counted);
      },
      get taken() {
        return taken;
      },
    };
  }

  /** Gives `bytes` back, and starts the waiting exchanges that fit now, in order. */
  #give(bytes: number): void {
    this.#held -= bytes;
    while (this.#waiting.length) {
      const { reserve, parts, start } = this.#waiting[0]!;
      const bytes = reserve();
      if (!this.#fits(bytes)) return;
      this.#waiting.shift();
      start(this.#share(bytes, parts));
    }
  }
}
