import type { OperationName } from '../contract/operation-table.js';
import { clientBytes, clientOf, clientTable, type ClientRequest, type StateScope } from '../state/client-state.js';
import { faultHits, faultSpec, type Fault } from './fault.js';
import { countsPerClient, laneKey, laneOf, usedUpPerDevice, type Lanes } from './lanes.js';

/** The most requests one planned fault may be set for (bounds absurd values). */
export const MAX_TIMES = 100_000;

/** A fault planned for the whole server or one device: for one operation (or all), for the next `times` requests. */
export interface PlannedFault {
  id: number;
  /** The fault in the `--fault` grammar, e.g. `meta/cp=status:500` or `reset@ab12` (see `faultSpec`). */
  spec: string;
  /** The operation it applies to; `undefined` for every operation. */
  operation?: OperationName;
  /** The device it is aimed at (its `_sdevid`, or a name `clientOf` gives: see `clientOfDevice`); `undefined` for every device. */
  device?: string;
  fault: Fault;
  /** Requests it still applies to (in `client` state: for the device it last applied to); `null` until cleared. */
  remaining: number | null;
  /** The requests it was planned for (in `client` state: for each client); `null` until cleared. */
  times: number | null;
  /** Requests it has hit so far. */
  fired: number;
  /** Requests it has seen so far (hit or not, for `rate`). */
  seen: number;
  /**
   * Whose requests `times` and `rate` count: `client` (each client gets the fault `times` times),
   * `global` (the server's requests together).
   */
  state: StateScope;
}

/** A device's counts of one fault counted per device (requests seen and hit), and, once the fault is used up for the device, where its lane goes on (see {@link FaultBoard}). */
interface DeviceCounts {
  seen: number;
  fired: number;
  /** The index in its lane's `perDevice` list of the next fault that may still be live for the device. */
  below?: number;
}

/** What one fault's counts cost a device's entry in the table (see `clientBytes`). */
const COUNTS_BYTES = 64;

/** What the admin API and flags give to plan a fault. */
export interface FaultPlan {
  operation?: OperationName;
  /** Aimed at one device (its `_sdevid`, or a name `clientOf` gives); default: every device. */
  device?: string;
  fault: Fault;
  /** Default: until cleared. */
  times?: number;
  /** Whose requests `times` counts; default: the board's `scope`, the server's `--state` (see {@link PlannedFault.state}). */
  state?: StateScope;
}

/**
 * The server-wide faults, planned by `--fault` flags or `POST /__mockvideo/faults`, for every device
 * or aimed at one. Every planned fault that still has requests left applies, within two kinds of
 * effect: the answer is postponed (`delay`), and the answer is replaced or withheld (every other
 * kind). For each, the most specific fault wins: one aimed at the request's device over one for
 * every device, then one planned for the request's operation over one for every operation, then the
 * one planned last. So `--fault delay:200-800 --fault localplay/recomm=reset` delays every operation and
 * resets `localplay/recomm` after the delay, in either order.
 *
 * A request costs the same with 1 or 1,000 faults planned, and with any number of devices: the
 * faults are kept in lanes by target and effect (`Lane`, `lanes.ts`), so a request reads two lanes
 * per effect (its operation's, every operation's), the last fault of each list, and two more of its
 * own device's when faults are aimed at it (a fault aimed at another device costs a request
 * nothing); the faults a device has used up are skipped with a pointer kept in its counts (`below`,
 * shortened as it is followed), and a device has counts only of the faults it was given. Each change
 * is noted with a version, so the event stream sends what changed ({@link changedSince}), not the
 * whole list.
 *
 * Measured with `node bench/faults.mjs` (1,000 per-device faults, 20,000 devices), the build before
 * against this one, interleaved on a machine others loaded (load 11–13): 1,583–1,694 against
 * 216–255 µs of server CPU per request (125–175 with no fault planned), 200–221 against 948–1,331
 * req/s, RSS peak 180–244 against 124–130 MB. On a quiet machine, before: 585 req/s and 394 MB
 * (14,159 req/s with no fault).
 */
export class FaultBoard {
  #planned: PlannedFault[] = [];
  /** The lanes of the faults for every device. */
  readonly #lanes: Lanes = new Map();
  /** The lanes of faults aimed at one device, by client (see `clientOf`). */
  readonly #aimed = new Map<string, Lanes>();
  /**
   * Each device's counts of the faults counted per device, by fault id: kept here, not in the
   * {@link PlannedFault} the admin API and the event stream serialise; bounded by count and bytes
   * (`clientTable`), the least recently seen device forgotten first (it then gets the faults again).
   */
  readonly #devices = clientTable<Map<number, DeviceCounts>>((counts, client) =>
    clientBytes(client, counts.size, COUNTS_BYTES),
  );
  #nextId = 1;
  #version = 0;
  /** The version of each fault's last change, by id. */
  readonly #changed = new Map<number, number>();
  /** The state of faults planned without one: the server's `--state`. */
  readonly scope: StateScope;

  constructor(scope: StateScope = 'global') {
    this.scope = scope;
  }

  /** A number that grows with every change of the planned faults (planned, counted, removed); see {@link changedSince}. */
  get version(): number {
    return this.#version;
  }

  /** The planned faults changed (planned or counted) after `version`, in plan order. Removed ones are not in {@link list} any more. */
  changedSince(version: number): PlannedFault[] {
    return this.#planned.filter((planned) => (this.#changed.get(planned.id) ?? 0) > version);
  }

  /** Notes a change of `planned` (or of the list, without one). */
  #touch(planned?: PlannedFault): void {
    this.#version++;
    if (planned) this.#changed.set(planned.id, this.#version);
  }

  /**
   * Drops the faults that are used up for good: `times` spent, counted for the server's requests
   * together (a fault counted per client is never used up: each new client gets it `times` times).
   * Planning a fault prunes first, so used-up faults stay listed only until the next one is planned.
   */
  prune(): void {
    const kept = this.#planned.filter(
      (planned) => usedUpPerDevice(planned) || planned.remaining === null || planned.remaining > 0,
    );
    if (kept.length === this.#planned.length) return;
    for (const planned of this.#planned) if (!kept.includes(planned)) this.#changed.delete(planned.id);
    this.#planned = kept;
    this.#touch();
  }

  /** Plans a fault (after {@link prune}); returns it with its id. */
  add(plan: FaultPlan): PlannedFault {
    this.prune();
    const planned: PlannedFault = {
      id: this.#nextId++,
      spec: faultSpec(plan.operation, plan.fault, plan.device),
      fault: plan.fault,
      remaining: plan.times ?? null,
      times: plan.times ?? null,
      fired: 0,
      seen: 0,
      state: plan.state ?? this.scope,
    };
    if (plan.operation) planned.operation = plan.operation;
    if (plan.device !== undefined) planned.device = plan.device;
    this.#planned.push(planned);
    const lane = laneOf(this.#lanes, this.#aimed, planned, true);
    (usedUpPerDevice(planned) ? lane.perDevice : lane.shared).push(planned);
    this.#touch(planned);
    return planned;
  }

  /**
   * The faults for the next request of `operation` from the client `request` names (see `clientOf`;
   * read only for a fault counted per client or while faults are aimed at a device; without
   * `request`, the shared client `unknown`): at most one `delay` and one other kind, the `delay` first (see
   * {@link FaultBoard}); empty when none applies. A fault with a `rate` that misses this request
   * leaves its effect alone (a less specific fault does not stand in). Counts what it takes: a fault
   * in `client` state with `times` or a `rate` counts per client, `remaining` then showing what the
   * device it applied to last has left.
   */
  take(operation: OperationName, request?: ClientRequest): Fault[] {
    let client: string | undefined;
    const asking = () => (client ??= request ? clientOf(request.query, request.address) : 'unknown');
    const taken: Fault[] = [];
    const own = this.#aimed.size > 0 ? this.#aimed.get(asking()) : undefined;
    for (const outcome of [false, true]) {
      const planned =
        (own && this.#applies(own, operation, outcome, asking)) ??
        this.#applies(this.#lanes, operation, outcome, asking);
      if (!planned) continue;
      const counts = countsPerClient(planned) ? this.#countsOf(planned, asking()) : undefined;
      const seen = planned.seen++;
      const hits = faultHits(planned.fault, counts ? counts.seen++ : seen);
      if (hits) {
        planned.fired++;
        if (counts) counts.fired++;
        taken.push(planned.fault);
      }
      if (usedUpPerDevice(planned)) planned.remaining = planned.times! - counts!.fired;
      else if (hits && planned.remaining !== null && --planned.remaining === 0)
        laneOf(this.#lanes, this.#aimed, planned)!.shared.pop();
      this.#touch(planned);
    }
    return taken;
  }

  /** The fault of `lanes` of one effect that applies to a request of `operation` by the device `asking` names (read only when a lane counts per device). */
  #applies(lanes: Lanes, operation: OperationName, outcome: boolean, asking: () => string): PlannedFault | undefined {
    for (const target of [operation, '*']) {
      const lane = lanes.get(laneKey(target, outcome));
      if (!lane) continue;
      const shared = lane.shared.at(-1);
      const own = lane.perDevice.length > 0 ? this.#newestLive(lane.perDevice, asking()) : undefined;
      const newest = own && shared ? (own.id > shared.id ? own : shared) : (own ?? shared);
      if (newest) return newest;
    }
    return undefined;
  }

  /**
   * The newest of `list` (faults counted per device) that `client` has not used up. Each used-up
   * fault's counts point below it (`below`), and every pointer followed is set to where the walk
   * ended: a device that used up 1,000 faults reaches the next one in a step or two.
   */
  #newestLive(list: readonly PlannedFault[], client: string): PlannedFault | undefined {
    const counts = this.#devices.get(client);
    let at = list.length - 1;
    const followed: DeviceCounts[] = [];
    for (let c; at >= 0 && (c = counts?.get(list[at]!.id)) && c.fired >= list[at]!.times!; at = c.below ?? at - 1)
      followed.push(c);
    for (const c of followed) c.below = at;
    return at >= 0 ? list[at] : undefined;
  }

  /** The counts of `client` for `planned` (a fault counted per client), made on its first request. */
  #countsOf(planned: PlannedFault, client: string): DeviceCounts {
    let device = this.#devices.get(client);
    if (!device) device = new Map();
    let counts = device.get(planned.id);
    if (!counts) {
      device.set(planned.id, (counts = { seen: 0, fired: 0 }));
      // Set again: its cost in the table grew (and a new device goes in).
      this.#devices.set(client, device);
    }
    return counts;
  }

  /** Forgets the per-client counts of every fault, for one client (see `clientOf`) or all: they get `times` again. */
  resetClients(client?: string): void {
    if (client === undefined) this.#devices.clear();
    else this.#devices.delete(client);
    for (const planned of this.#planned)
      if (usedUpPerDevice(planned) && planned.remaining !== planned.times) {
        planned.remaining = planned.times;
        this.#touch(planned);
      }
  }

  /** The planned faults, used up ones included (their `remaining` is 0). */
  list(): readonly PlannedFault[] {
    return this.#planned;
  }

  /** Removes every planned fault. */
  clear(): void {
    this.#planned = [];
    this.#lanes.clear();
    this.#aimed.clear();
    this.#devices.clear();
    this.#changed.clear();
    this.#touch();
  }
}
