import type { OperationName } from '../contract/operation-table.js';
import { MAX_CLIENTS, clientOf, type ClientRequest, type StateScope } from '../state/client-state.js';
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
  /** Requests it still applies to (in `client` state: for the client that asked last); `null` until cleared. */
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

/** Requests seen and hit by one client for a fault counted per client. */
interface ClientCounts {
  seen: number;
  fired: number;
}

/** Whether `planned` counts per client: in `client` state, with `times` or a `rate` (a fault that hits every request until cleared counts nothing per client). */
function countsPerClient(planned: PlannedFault): boolean {
  return planned.state === 'client' && (planned.times !== null || (planned.fault.rate ?? 1) < 1);
}

/** What the admin API and flags give to plan a fault. */
export interface FaultPlan {
  operation?: OperationName;
  fault: Fault;
  /** Default: until cleared. */
  times?: number;
  /** Whose requests `times` counts; default: the board's `scope`, the server's `--state` (see {@link PlannedFault.state}). */
  state?: StateScope;
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
  /**
   * The per-client counts of each fault counted per client, by fault id: kept here, not in the
   * {@link PlannedFault} the admin API and the event stream serialise (4,096 clients each).
   */
  #clientCounts = new Map<number, Map<string, ClientCounts>>();
  #nextId = 1;
  /** The state of faults planned without one: the server's `--state`. */
  readonly scope: StateScope;

  constructor(scope: StateScope = 'global') {
    this.scope = scope;
  }

  /**
   * Drops the faults that are used up for good: `times` spent, counted for the server's requests
   * together (a fault counted per client is never used up: each new client gets it `times` times).
   * Planning a fault prunes first, so used-up faults stay listed only until the next one is planned.
   */
  prune(): void {
    this.#planned = this.#planned.filter(
      (planned) => countsPerClient(planned) || planned.remaining === null || planned.remaining > 0,
    );
  }

  /** Plans a fault (after {@link prune}); returns it with its id. */
  add(plan: FaultPlan): PlannedFault {
    this.prune();
    const planned: PlannedFault = {
      id: this.#nextId++,
      spec: faultSpec(plan.operation, plan.fault),
      fault: plan.fault,
      remaining: plan.times ?? null,
      times: plan.times ?? null,
      fired: 0,
      seen: 0,
      state: plan.state ?? this.scope,
    };
    if (plan.operation) planned.operation = plan.operation;
    this.#planned.push(planned);
    return planned;
  }

  /**
   * The faults for the next request of `operation` from the client `request` names (see `clientOf`;
   * read only for a fault counted per client; without one, the shared client `unknown`): at most one `delay` and one other kind, the `delay` first (see
   * {@link FaultBoard}); empty when none applies. A fault with a `rate` that misses this request
   * leaves its effect alone (a less specific fault does not stand in). Counts what it takes: a fault
   * in `client` state with `times` or a `rate` counts per client, `remaining` then showing what the
   * client asking now has left.
   */
  take(operation: OperationName, request?: ClientRequest): Fault[] {
    let delay: PlannedFault | undefined;
    let outcome: PlannedFault | undefined;
    let asking: string | undefined;
    const countsOf = (planned: PlannedFault) =>
      countsPerClient(planned)
        ? this.#countsOf(planned, (asking ??= request ? clientOf(request.query, request.address) : 'unknown'))
        : undefined;
    // In the order planned: a later fault of equal specificity replaces an earlier one.
    for (const planned of this.#planned) {
      if (planned.operation !== undefined && planned.operation !== operation) continue;
      if (planned.times !== null && countsPerClient(planned))
        planned.remaining = planned.times - countsOf(planned)!.fired;
      if (planned.remaining !== null && planned.remaining <= 0) continue;
      const current = isOutcomeFault(planned.fault) ? outcome : delay;
      if (current && current.operation !== undefined && planned.operation === undefined) continue;
      if (isOutcomeFault(planned.fault)) outcome = planned;
      else delay = planned;
    }
    const taken: Fault[] = [];
    for (const planned of [delay, outcome]) {
      if (!planned) continue;
      const counts = countsOf(planned);
      const seen = planned.seen++;
      if (!faultHits(planned.fault, counts ? counts.seen++ : seen)) continue;
      if (counts) counts.fired++;
      planned.fired++;
      if (planned.remaining !== null) planned.remaining--;
      taken.push(planned.fault);
    }
    return taken;
  }

  /**
   * The counts of `client` for `planned` (a fault counted per client), made on its first request;
   * beyond {@link MAX_CLIENTS} clients, the one that appeared first is forgotten. A `Map`, so finding
   * the oldest is one step: listing the keys of up to 4,096 clients at each new one made every new
   * device ~15× slower with four such faults.
   */
  #countsOf(planned: PlannedFault, client: string): ClientCounts {
    let clients = this.#clientCounts.get(planned.id);
    if (!clients) this.#clientCounts.set(planned.id, (clients = new Map()));
    let counts = clients.get(client);
    if (!counts) {
      if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
      clients.set(client, (counts = { seen: 0, fired: 0 }));
    }
    return counts;
  }

  /** Requests seen and hit by `client` (see `clientOf`) for the planned fault `id`; `undefined` when it has none counted. */
  clientCounts(id: number, client: string): Readonly<ClientCounts> | undefined {
    return this.#clientCounts.get(id)?.get(client);
  }

  /** Forgets the per-client counts of every fault, for one client (see `clientOf`) or all: they get `times` again. */
  resetClients(client?: string): void {
    for (const planned of this.#planned) {
      const clients = this.#clientCounts.get(planned.id);
      if (!clients) continue;
      if (client === undefined) this.#clientCounts.delete(planned.id);
      else clients.delete(client);
      planned.remaining = planned.times;
    }
  }

  /** The planned faults, used up ones included (their `remaining` is 0). */
  list(): readonly PlannedFault[] {
    return this.#planned;
  }

  /** Removes every planned fault. */
  clear(): void {
    this.#planned = [];
    this.#clientCounts.clear();
  }
}
