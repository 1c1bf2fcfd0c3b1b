import type { OperationName } from '../contract/operation-table.js';
import { faultHits, faultSpec, isOutcomeFault, type Fault } from './fault.js';

/** The most requests one planned fault may be set for (bounds absurd values). */
export const MAX_TIMES = 100_000;

/** A fault planned for the whole server: for one operation (or all), for the next `times` requests. */
export interface PlannedFault {
  id: number;
  /** The fault in the `--fault` grammar, e.g. `meta/cp=status:500` (see `faultSpec`). */
  spec: string;
  /** The operation it applies to; `undefined` for every operation. */
  operation?: OperationName;
  fault: Fault;
  /** Requests it still applies to; `null` until cleared. */
  remaining: number | null;
  /** Requests it has hit so far. */
  fired: number;
  /** Requests it has seen so far (hit or not, for `rate`). */
  seen: number;
}

/** What the admin API and flags give to plan a fault. */
export interface FaultPlan {
  operation?: OperationName;
  fault: Fault;
  /** Default: until cleared. */
  times?: number;
}

/**
 * The server-wide faults, planned by `--fault` flags or `POST /__mockvideo/faults`. Every planned
 * fault that still has requests left applies, within two kinds of effect: the answer is postponed
 * (`delay`), and the answer is replaced or withheld (every other kind). For each, the most specific
 * fault wins: one planned for the request's operation over one for every operation, then the one
 * planned last. So `--fault delay:200-800 --fault localplay/recomm=reset` delays every operation and
 * resets `localplay/recomm` after the delay, in either order.
 */
export class FaultBoard {
  #planned: PlannedFault[] = [];
  #nextId = 1;

  /** Plans a fault; returns it with its id. */
  add(plan: FaultPlan): PlannedFault {
    const planned: PlannedFault = { id: this.#nextId++, spec: faultSpec(plan.operation, plan.fault), fault: plan.fault, remaining: plan.times ?? null, fired: 0, seen: 0 };
    if (plan.operation) planned.operation = plan.operation;
    this.#planned.push(planned);
    return planned;
  }

  /**
   * The faults for the next request of `operation`: at most one `delay` and one other kind, the
   * `delay` first (see {@link FaultBoard}); empty when none applies. A fault with a `rate` that
   * misses this request leaves its effect alone (a less specific fault does not stand in). Counts
   * what it takes.
   */
  take(operation: OperationName): Fault[] {
    let delay: PlannedFault | undefined;
    let outcome: PlannedFault | undefined;
    // In the order planned: a later fault of equal specificity replaces an earlier one.
    for (const planned of this.#planned) {
      if (planned.operation !== undefined && planned.operation !== operation) continue;
      if (planned.remaining !== null && planned.remaining <= 0) continue;
      const current = isOutcomeFault(planned.fault) ? outcome : delay;
      if (current && current.operation !== undefined && planned.operation === undefined) continue;
      if (isOutcomeFault(planned.fault)) outcome = planned;
      else delay = planned;
    }
    const taken: Fault[] = [];
    for (const planned of [delay, outcome]) {
      if (!planned || !faultHits(planned.fault, planned.seen++)) continue;
      planned.fired++;
      if (planned.remaining !== null) planned.remaining--;
      taken.push(planned.fault);
    }
    return taken;
  }

  /** The planned faults, used up ones included (their `remaining` is 0). */
  list(): readonly PlannedFault[] {
    return this.#planned;
  }

  /** Removes every planned fault. */
  clear(): void {
    this.#planned = [];
  }
}
