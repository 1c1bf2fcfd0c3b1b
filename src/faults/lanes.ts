/**
 * The lanes of the fault board: planned faults kept by device, target and effect, so that a request
 * reads a few lists, however many faults are planned (see `FaultBoard`). Any runtime.
 * @module
 */
import { clientOfDevice } from '../state/client-state.js';
import type { PlannedFault } from './board.js';
import { isOutcomeFault } from './fault.js';

/** Whether `planned` counts per client: in `client` state, with `times` or a `rate` (a fault that hits every request until cleared counts nothing per client). */
export function countsPerClient(planned: PlannedFault): boolean {
  return planned.state === 'client' && (planned.times !== null || (planned.fault.rate ?? 1) < 1);
}

/** Whether `planned` is used up per device: in `client` state with `times` (each device gets it `times` times). */
export function usedUpPerDevice(planned: PlannedFault): boolean {
  return planned.state === 'client' && planned.times !== null;
}

/**
 * The faults that one effect (timing or outcome) of one target (an operation, or `*` for every
 * operation) may take, each list in plan order: `shared`, those whose use does not depend on the
 * device (until cleared, or `times` counted for the whole server), only while they have requests
 * left, so the last is the one that applies; `perDevice`, those whose `times` count per device,
 * never removed until cleared (a new device gets them all).
 */
export interface Lane {
  shared: PlannedFault[];
  perDevice: PlannedFault[];
}

/** The key of a lane: its target (operation or `*`) and effect. */
export const laneKey = (target: string, outcome: boolean) => `${target}\u0000${outcome ? 'outcome' : 'timing'}`;

/** Lanes by {@link laneKey}: the board's for every device, or those of one device's aimed faults. */
export type Lanes = Map<string, Lane>;

/**
 * The lane `planned` is in: of `lanes` (the board's, for every device), or, for a fault aimed at a
 * device, of that device's lanes in `aimed` (by client, see `clientOf`); made, with `make`, when it
 * is the first of its lane.
 */
export function laneOf(lanes: Lanes, aimed: Map<string, Lanes>, planned: PlannedFault, make: true): Lane;
export function laneOf(lanes: Lanes, aimed: Map<string, Lanes>, planned: PlannedFault): Lane | undefined;
export function laneOf(lanes: Lanes, aimed: Map<string, Lanes>, planned: PlannedFault, make = false): Lane | undefined {
  let own: Lanes | undefined = lanes;
  if (planned.device !== undefined) {
    const client = clientOfDevice(planned.device);
    own = aimed.get(client);
    if (!own && make) aimed.set(client, (own = new Map()));
  }
  const key = laneKey(planned.operation ?? '*', isOutcomeFault(planned.fault));
  let lane = own?.get(key);
  if (!lane && make) own!.set(key, (lane = { shared: [], perDevice: [] }));
  return lane;
}
