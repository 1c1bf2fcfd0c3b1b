/**
 * State per client: the counters behind sequences (scenario stubs, replayed recordings) and the
 * rate counts of scenario faults, kept apart for each client, and started again when a device
 * starts playback again. Any runtime.
 * @module
 */
import { LRUCache } from 'lru-cache';

/**
 * Whose counters a request advances: `client` (the default) keeps them per client, started again at
 * each new start-up of the device; `global` keeps one set for the whole server, as before (every
 * client advances the same sequences, and only a reset or a scenario switch starts them again).
 */
export type StateScope = 'client' | 'global';

/** The scopes, as `--state` and the scenario setting `"state"` spell them. */
export const STATE_SCOPES: readonly StateScope[] = ['client', 'global'];

/**
 * Default quiet gap that ends a burst of one client, in **milliseconds**: the verify rule's start-up
 * boundary (`DEFAULT_QUIET_GAP_SECONDS` of `src/verify/verify.ts`, 5 s).
 */
const DEFAULT_QUIET_GAP_MS = 5000;

/** The most clients whose state is kept; beyond, the one seen least recently is forgotten. */
const MAX_CLIENTS = 4096;

/**
 * The most bytes the state of clients may cost, by {@link clientBytes}; beyond, the client seen
 * least recently is forgotten. 4,096 clients of ordinary ids cost ~2 MiB; ids of 7.9 KB (a
 * hostile `_sdevid`, issue 39) ~16 KiB each, so ~500 of them are kept, not 4,096 × 16 KiB.
 */
const MAX_CLIENT_BYTES = 8 * 1024 * 1024;

/**
 * What one client's entry of per-client state costs, in bytes, as {@link MAX_CLIENT_BYTES} counts
 * it: its key at 2 bytes a character (the most a JavaScript string takes), a fixed 200 for the
 * entry and its Map, and `perItem` for each thing it holds (a counter, a fault's counts).
 */
export function clientBytes(client: string, items: number, perItem: number): number {
  return 200 + client.length * 2 + items * perItem;
}

/** What one counter of a client costs by {@link clientBytes}: its key (a scenario, operation and stub, or a match key) and number. */
const COUNTER_BYTES = 160;

/**
 * What the per-client tables use of lru-cache's `LRUCache` (the tables are private fields; this
 * type keeps lru-cache's declarations, which need Node's types, out of the package's public ones:
 * a test author's `tsc` without `@types/node` failed on them, TS2503 "Cannot find namespace 'NodeJS'").
 */
export interface ClientTable<V extends object> {
  get(client: string): V | undefined;
  peek(client: string): V | undefined;
  set(client: string, value: V): unknown;
  delete(client: string): boolean;
  clear(): void;
  readonly size: number;
  values(): Iterable<V>;
  rforEach(each: (value: V, client: string) => void): void;
}

/**
 * A table of one value per client, the least recently used forgotten first beyond
 * {@link MAX_CLIENTS} clients or {@link MAX_CLIENT_BYTES} (lru-cache). `size(value, client)` is
 * what an entry costs ({@link clientBytes}); the owner sets an entry again when it grows.
 */
export function clientTable<V extends object>(size: (value: V, client: string) => number): ClientTable<V> {
  return new LRUCache<string, V>({ max: MAX_CLIENTS, maxSize: MAX_CLIENT_BYTES, sizeCalculation: size });
}

/** The only operation that does not make a start-up (seed "Operations" rule 2: the recommendation view after playback). */
const RECOMMENDATIONS = 'localplay/recomm';

/**
 * The client a request comes from: `sdevid:<_sdevid>` (the hashed device identifier every request
 * carries, seed "Common query parameters"), else `anoyid:<_anoyid>`, else `address:<the connection's
 * address>`, else `unknown` (all such requests share one client). `query` is the raw query (without
 * `?`) or its parsed parameters.
 *
 * @example clientOf('_sdevid=ab12&_ts=1') // 'sdevid:ab12'
 */
export function clientOf(query: string | URLSearchParams, address?: string): string {
  const device = parameter(query, '_sdevid', SDEVID);
  if (device) return `sdevid:${device}`;
  const user = parameter(query, '_anoyid', ANOYID);
  if (user) return `anoyid:${user}`;
  return address ? `address:${address}` : 'unknown';
}

/** How `clientOf` begins the names it gives: a device named so by an admin call or flag is that client. */
const CLIENT_KINDS = /^(?:sdevid|anoyid|address):|^unknown$/;

/**
 * The client (see {@link clientOf}) of a device as an admin call or flag names it: an `_sdevid`
 * value (`ab12` → `sdevid:ab12`), or a name `clientOf` gives, as it is (`anoyid:…`,
 * `address:10.0.2.16`, `unknown`), for a device that sends no `_sdevid`.
 *
 * @example clientOfDevice('ab12') // 'sdevid:ab12'
 * @example clientOfDevice('address:10.0.2.16') // 'address:10.0.2.16'
 */
export function clientOfDevice(device: string): string {
  return CLIENT_KINDS.test(device) ? device : `sdevid:${device}`;
}

/** How people name the device of `client` (the inverse of {@link clientOfDevice}): its `_sdevid` alone, else the client's name. */
export function deviceOfClient(client: string): string {
  return client.startsWith('sdevid:') ? client.slice('sdevid:'.length) : client;
}

const SDEVID = /(?:^|&)_sdevid=([^&]*)/;
const ANOYID = /(?:^|&)_anoyid=([^&]*)/;

/**
 * The first value of parameter `name` in a raw query (found by `pattern`, decoded as
 * `URLSearchParams` decodes it), or in parsed parameters. Not `new URLSearchParams(query)`: parsing
 * all 27 parameters to read one cost replay ~9% of its CPU per request (`node --cpu-prof`,
 * autocannon on one recording, 2026-11-27).
 */
function parameter(query: string | URLSearchParams, name: string, pattern: RegExp): string | null {
  if (typeof query !== 'string') return query.get(name);
  const raw = pattern.exec(query)?.[1];
  if (raw === undefined) return null;
  // Most ids have nothing to decode; decoding one with URLSearchParams cost replay ~3% of its CPU.
  return /[%+]/.test(raw) ? new URLSearchParams(`v=${raw}`).get('v') : raw;
}

/** What names the client of a request (see {@link clientOf}): its query (raw, without `?`, or parsed) and the connection's address when the adapter knows it. */
export interface ClientRequest {
  readonly query: string | URLSearchParams;
  readonly address?: string | undefined;
}

/** The counters of one client (or of the whole server): counter key → requests counted. */
export type Counters = Map<string, number>;

interface ClientEntry {
  counters: Counters;
  /** The counters its cost in the table was last reckoned with (see {@link clientBytes}). */
  charged: number;
  /** When its last request came, in ms of the state's time source. */
  lastSeen: number;
  /** True from the first request after a quiet gap until the burst shows it is a start-up (or not). */
  burstOpen: boolean;
  /** Start-ups seen (each started the client's counters again). */
  startUps: number;
}

/** What {@link ClientStates} is made with. */
export interface ClientStatesOptions {
  /** Default `client`. */
  scope?: StateScope;
  /** The quiet gap that ends a burst, in milliseconds; default {@link DEFAULT_QUIET_GAP_MS}. */
  quietGapMs?: number;
  /** The time source for the quiet gap, in milliseconds (default `performance.now`): elapsed time, never the set clock. */
  now?: () => number;
}

/** One client's state, as the admin API lists it. */
export interface ClientSummary {
  client: string;
  /** Counters held, e.g. `default\u0000meta/setting\u00000` → 2. */
  counters: number;
  startUps: number;
  /** Milliseconds since its last request. */
  idleMs: number;
}

/**
 * The counter store behind sequences and fault counts, per client (see {@link clientOf}) or, in
 * `global` scope, one for the server.
 *
 * A new start-up of a device starts its counters again, with the verify rule's boundary: the
 * requests of one client with no quiet gap of {@link DEFAULT_QUIET_GAP_MS} or more between them
 * form a burst; a burst that calls an operation other than `localplay/recomm` is a start-up, and
 * its first such request starts the counters again. A burst of only `localplay/recomm` (the
 * recommendation view after playback) goes on with the counters of the start-up before it.
 *
 * Bounded by count and bytes ({@link clientTable}): the client seen least recently is forgotten
 * first, so a device in the middle of its start-up is never the one forgotten for a flood of new ids.
 */
export class ClientStates {
  scope: StateScope;
  readonly quietGapMs: number;
  readonly #now: () => number;
  readonly #global: Counters = new Map();
  readonly #clients = clientTable<ClientEntry>((entry, client) => clientBytes(client, entry.charged, COUNTER_BYTES));

  constructor(options: ClientStatesOptions = {}) {
    this.scope = options.scope ?? 'client';
    this.quietGapMs = options.quietGapMs ?? DEFAULT_QUIET_GAP_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * The counters a request of `client` to `operation` advances, in scope `scope` (default: the
   * store's). Call once per request: it notes the request, and the first request of a new start-up
   * gets fresh counters. In `global` scope, the server's counters (nothing is noted).
   */
  counters(client: string, operation: string, scope: StateScope = this.scope): Counters {
    if (scope === 'global') return this.#global;
    const now = this.#now();
    // Seen again (`get`): it goes to the end of the forgetting order.
    let entry = this.#clients.get(client);
    if (!entry) {
      entry = { counters: new Map(), charged: 0, lastSeen: now, burstOpen: true, startUps: 0 };
      this.#clients.set(client, entry);
    } else {
      if (now - entry.lastSeen >= this.quietGapMs) entry.burstOpen = true;
      entry.lastSeen = now;
      // Its counters grew since its last request: its cost is reckoned again.
      if (entry.counters.size !== entry.charged) {
        entry.charged = entry.counters.size;
        this.#clients.set(client, entry);
      }
    }
    if (entry.burstOpen && operation !== RECOMMENDATIONS) {
      entry.burstOpen = false;
      entry.startUps++;
      entry.counters.clear();
    }
    return entry.counters;
  }

  /**
   * Starts counters again: of one client, or of every client and the server's. Returns how many
   * clients were reset (a client reset later starts with a start-up again).
   */
  reset(client?: string): number {
    if (client !== undefined) return this.#clients.delete(client) ? 1 : 0;
    const count = this.#clients.size;
    this.#clients.clear();
    this.#global.clear();
    return count;
  }

  /**
   * Drops the counters whose key starts with `prefix` (a scenario switched to starts again): of
   * every client and the server's, or of `client` alone (a device given its own scenario; the
   * server's counters, which every device shares in `global` scope, are left alone).
   */
  forget(prefix: string, client?: string): void {
    const all =
      client === undefined
        ? [this.#global, ...[...this.#clients.values()].map((e) => e.counters)]
        : [this.#clients.peek(client)?.counters ?? new Map<string, number>()];
    for (const counters of all) {
      for (const key of counters.keys()) if (key.startsWith(prefix)) counters.delete(key);
    }
  }

  /** The clients known, least recently seen first. */
  list(): ClientSummary[] {
    const now = this.#now();
    const summaries: ClientSummary[] = [];
    this.#clients.rforEach((e, client) =>
      summaries.push({ client, counters: e.counters.size, startUps: e.startUps, idleMs: Math.round(now - e.lastSeen) }),
    );
    return summaries;
  }
}

/**
 * The step of a sequence an answer was, as the `x-mockvideo-step` header and the journal's `step`
 * field write it: `"<n>/<length>"`, 1-based (`"2/2"`: the second and last answer, which repeats).
 */
export function stepText(index: number, length: number): string {
  return `${Math.min(index, length - 1) + 1}/${length}`;
}
