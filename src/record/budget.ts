/**
 * The in-flight budget of the recorder: how many bytes of upstream bodies its exchanges hold in
 * memory at once. An exchange counts its bytes while it holds them (received, decoded, queued for
 * the disk) and gives them back once its recording is written or dropped. Over the budget, new
 * exchanges wait before they are forwarded: the recorder holds back, it never answers for the
 * upstream (issue 34.4: a 503 of ours where the upstream said 200 is a lie to the app).
 * @module
 */

/** The default most bytes of upstream bodies held at once by all exchanges in flight (128 MiB). */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 128 * 1024 * 1024;

/**
 * Bytes held against a limit, with a queue of exchanges waiting to start. Exchanges already
 * forwarded are never stopped: the bytes held can pass `limit` by what those receive (at most their
 * number × `--max-body-size`); no new exchange starts until they are back under it.
 */
export class InFlightBudget {
  readonly limit: number;
  #held = 0;
  readonly #waiting: Array<() => void> = [];

  /** @param limit bytes, above 0. */
  constructor(limit: number) {
    this.limit = limit;
  }

  /** `undefined` when an exchange may start now (fewer than `limit` bytes held), else a promise that resolves when it may. */
  admit(): Promise<void> | undefined {
    if (this.#held < this.limit) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Counts `bytes` more as held. */
  take(bytes: number): void {
    this.#held += bytes;
  }

  /** Gives `bytes` back, and starts the waiting exchanges while fewer than `limit` are held. */
  give(bytes: number): void {
    this.#held -= bytes;
    while (this.#held < this.limit && this.#waiting.length) this.#waiting.shift()!();
  }
}
