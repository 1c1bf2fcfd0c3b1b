import type { OperationName } from '../contract/operation-table.js';
import { faultHits, type Fault } from './fault.js';

/** The most requests one planned fault may be set for (bounds absurd values). */
export const MAX_TIMES = 100_000;

/** A fault planned for the whole server: for one operation (or all), for the next `times` requests. */
export interface PlannedFault {
  id: number;
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
 * The server-wide faults, planned by `--fault` flags or `POST /__mockvideo/faults`. A request takes
 * the first planned fault of its operation (or of all operations) that still has requests left.
 */
export class FaultBoard {
  #planned: PlannedFault[] = [];
  #nextId = 1;

  /** Plans a fault; returns it with its id. */
  add(plan: FaultPlan): PlannedFault {
    const planned: PlannedFault = { id: this.#nextId++, fault: plan.fault, remaining: plan.times ?? null, fired: 0, seen: 0 };
    if (plan.operation) planned.operation = plan.operation;
    this.#planned.push(planned);
    return planned;
  }

  /** The fault for the next request of `operation`, if one is planned and hits; counts it. */
  take(operation: OperationName): Fault | undefined {
    for (const planned of this.#planned) {
      if (planned.operation !== undefined && planned.operation !== operation) continue;
      if (planned.remaining !== null && planned.remaining <= 0) continue;
      const hit = faultHits(planned.fault, planned.seen++);
      if (!hit) continue;
      planned.fired++;
      if (planned.remaining !== null) planned.remaining--;
      return planned.fault;
    }
    return undefined;
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
