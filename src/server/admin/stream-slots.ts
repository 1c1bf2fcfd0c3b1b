/**
 * The slots of the dashboard's event streams, shared fairly: a new stream always gets one, so no
 * number of idle streams can lock the page out (issue 39: sixteen idle connections, no token
 * needed, kept every dashboard on "Connection lost, reconnecting…").
 * @module
 */

/**
 * At most `total` streams, at most `perAddress` of them from one address. A stream that comes when
 * its address holds `perAddress` takes the slot of that address's oldest stream; when all `total`
 * are taken, of the oldest stream of the address holding the most (a flood from one address never
 * costs another address its stream, and the page, coming last, always gets one). The streams are
 * all idle alike (a reader sends nothing), so age decides: the oldest slot goes first.
 *
 * @example
 * const slots = new StreamSlots<Response>(16, 4);
 * const dropped = slots.admit(res, req.socket.remoteAddress ?? ''); // close `dropped`, if any
 */
export class StreamSlots<S> {
  /** Each stream holding a slot and its address, oldest first. */
  readonly #slots = new Map<S, string>();

  constructor(
    readonly total: number,
    readonly perAddress: number,
  ) {}

  /** How many streams hold a slot. */
  get size(): number {
    return this.#slots.size;
  }

  /** The streams holding a slot, oldest first. */
  streams(): IterableIterator<S> {
    return this.#slots.keys();
  }

  /**
   * Gives `stream` (from `address`) a slot; returns the stream whose slot it took (the caller
   * closes it), or `undefined` when one was free.
   */
  admit(stream: S, address: string): S | undefined {
    const byAddress = new Map<string, S[]>();
    for (const [held, from] of this.#slots) {
      const list = byAddress.get(from);
      if (list) list.push(held);
      else byAddress.set(from, [held]);
    }
    let pool = byAddress.get(address);
    if (!pool || pool.length < this.perAddress) {
      pool = undefined;
      if (this.#slots.size >= this.total)
        for (const list of byAddress.values()) if (!pool || list.length > pool.length) pool = list;
    }
    const dropped = pool?.[0];
    if (dropped !== undefined) this.#slots.delete(dropped);
    this.#slots.set(stream, address);
    return dropped;
  }

  /** Frees the slot of `stream` (it closed). */
  delete(stream: S): void {
    this.#slots.delete(stream);
  }
}
