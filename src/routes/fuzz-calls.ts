/**
 * The call numbers of `serve --fuzz`: per device, how many times it called each operation. Bounded
 * by count and by bytes: a device is known by its `_sdevid` (or `_anoyid`, or address) as sent, and
 * a device may send kilobytes there (7.9 KB ids grew `serve --fuzz` to 365–668 MB under a count
 * bound alone, issue 39 L3). Beyond either bound, the device seen least recently is forgotten (its
 * calls start again from 1). Any runtime.
 * @module
 */

/** The most devices whose call numbers are kept. */
const MAX_FUZZ_DEVICES = 4096;

/** The most UTF-16 code units of device keys kept (1 Mi: 4,096 devices of 256 characters; an `_sdevid` is 64). */
const MAX_FUZZ_DEVICE_CHARS = 1 << 20;

/** Each device's calls of each operation (by the operation's index in `OPERATION_NAMES`), least recently seen first. */
export class FuzzCalls {
  readonly #devices = new Map<string, number[]>();
  #chars = 0;

  /** The next call number (from 1) of operation `index` by `device`, counted. */
  next(device: string, index: number): number {
    let calls = this.#devices.get(device);
    if (calls) this.#devices.delete(device);
    else {
      calls = [0, 0, 0, 0, 0, 0];
      this.#chars += device.length;
    }
    this.#devices.set(device, calls);
    for (const [oldest] of this.#devices) {
      if (this.#devices.size <= MAX_FUZZ_DEVICES && this.#chars <= MAX_FUZZ_DEVICE_CHARS) break;
      if (oldest === device) break;
      this.#devices.delete(oldest);
      this.#chars -= oldest.length;
    }
    return ++calls[index]!;
  }
}
