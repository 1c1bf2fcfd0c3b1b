/**
 * The scenarios given to single devices while a server runs (per-device steering): which device
 * follows which scenario instead of the server's. Any runtime.
 * @module
 */
import { MockvideoError } from '../errors.js';
import { clientOf, clientOfDevice, deviceOfClient, type ClientRequest } from './client-state.js';

/** The most devices that may have a scenario of their own at once; one more is refused. */
const MAX_STEERED_DEVICES = 1000;

/** The longest device name taken, in characters (an `_sdevid` is 64; a `clientOf` name of an address is about 50). */
const MAX_DEVICE_LENGTH = 512;

/**
 * A device name an admin call, flag or fault may give: 1 to {@link MAX_DEVICE_LENGTH} characters,
 * none of them a control character (the name is printed in the terminal's lines and the fault's `spec`).
 */
export const DEVICE_NAME = new RegExp(`^[^\\u0000-\\u001f\\u007f-\\u009f]{1,${MAX_DEVICE_LENGTH}}$`);

/** What a device name must be, as errors say it. */
export const DEVICE_NAME_RULE = `the _sdevid of one device (or "anoyid:<_anoyid>", "address:<address>"), 1 to ${MAX_DEVICE_LENGTH} characters, no control character`;

/** One device with a scenario of its own: `device` as people name it (see `deviceOfClient`), `scenario` its name. */
export interface SteeredDevice {
  device: string;
  scenario: string;
}

/**
 * The client (see `clientOf`) of a device an admin call, flag or fault names (`_sdevid`, or a name
 * `clientOf` gives: see `clientOfDevice`).
 * @throws MockvideoError (`MV_USAGE`) for a name that is not a {@link DEVICE_NAME}.
 */
export function steerableClient(device: string): string {
  if (!DEVICE_NAME.test(device))
    throw new MockvideoError(
      'MV_USAGE',
      `A device is named by ${DEVICE_NAME_RULE}; got ${device.length} characters${device.length ? ` starting ${JSON.stringify(device.slice(0, 12))}` : ''}.`,
    );
  return clientOfDevice(device);
}

/**
 * Which devices answer from a scenario of their own (set by `PUT /__mockvideo/devices/SDEVID/scenario`
 * or `--device-scenario`), by client (see `clientOf`): the routes read it for every request between
 * the scenario a request picks itself (header, `/scenarios/NAME` prefix) and the server's. At most
 * {@link MAX_STEERED_DEVICES}; nothing is forgotten by itself. Whether a scenario exists is the
 * caller's check. `version` counts the changes (the event stream sends `devices` when it moves).
 */
export class DeviceScenarios {
  readonly #scenarios = new Map<string, string>();
  /** How many times a device's scenario was set or removed. */
  version = 0;

  /**
   * The scenario of the device `request` comes from, or `undefined` when it has none. Names the
   * client (`clientOf`) only when some device has one: a server nobody steers pays nothing.
   */
  of(request: ClientRequest): string | undefined {
    return this.#scenarios.size === 0 ? undefined : this.#scenarios.get(clientOf(request.query, request.address));
  }

  /** The scenario of `client` (see `clientOf`), or `undefined`. */
  get(client: string): string | undefined {
    return this.#scenarios.get(client);
  }

  /**
   * Gives `client` the scenario `scenario` from its next request on.
   * @throws MockvideoError (`MV_TOO_MANY_STEERED`, 429 in an answer) when {@link MAX_STEERED_DEVICES} other devices have one already.
   */
  set(client: string, scenario: string): void {
    if (!this.#scenarios.has(client) && this.#scenarios.size >= MAX_STEERED_DEVICES)
      throw new MockvideoError(
        'MV_TOO_MANY_STEERED',
        `${MAX_STEERED_DEVICES} devices have a scenario of their own already, the most mockvideo keeps: give one back to the server's (DELETE /__mockvideo/devices/SDEVID/scenario) first.`,
      );
    this.#scenarios.set(client, scenario);
    this.version++;
  }

  /** `client` follows the server's scenario again; false when it had none of its own. */
  delete(client: string): boolean {
    const had = this.#scenarios.delete(client);
    if (had) this.version++;
    return had;
  }

  /** Every device with a scenario of its own, in the order they were first given one. */
  list(): SteeredDevice[] {
    return [...this.#scenarios].map(([client, scenario]) => ({ device: deviceOfClient(client), scenario }));
  }
}
