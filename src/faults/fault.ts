/**
 * Fault kinds and how a fault acts on answers, without zod: what serving needs. The schema that reads
 * a fault from a scenario file, a flag or the admin API is `faultSchema` in `fault-schema.ts`.
 * @module
 */
import type { Fault } from './fault-schema.js';

export type { Fault } from './fault-schema.js';

/** The fault kinds, named the same in scenario files, `--fault` flags and the admin API. */
export const FAULT_KINDS = ['delay', 'status', 'envelope', 'malformed-json', 'empty', 'reset', 'hang'] as const;

/** One fault kind. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The argument a kind takes in the `--fault` grammar (`status:503`), by its placeholder; the others take none. */
const FAULT_ARGUMENTS: Partial<Record<FaultKind, string>> = { delay: 'MS|MIN-MAX', status: 'CODE', envelope: 'RESULT' };

/**
 * The fault kinds with their `--fault` arguments, for help texts and schema descriptions:
 * `delay[:MS|MIN-MAX], status[:CODE], envelope[:RESULT], malformed-json, empty, reset, hang`.
 */
export const FAULT_KINDS_TEXT = FAULT_KINDS.map((kind) =>
  FAULT_ARGUMENTS[kind] ? `${kind}[:${FAULT_ARGUMENTS[kind]}]` : kind,
).join(', ');

/**
 * The rules of a fault that JSON Schema cannot state, each with its message: written once here, read
 * by `faultSchema` (zod refinements) and by the check compiled from it (`plan-check.ts`).
 */
export const FAULT_RULES = {
  bodilessStatus: "a status of 204, 205 or 304 cannot carry the answer's body",
  delayRange: 'a delay range is [min, max] with min ≤ max',
  envelopeResult: 'an envelope fault needs a result other than 1',
} as const;

/** The longest delay a fault may ask for, in milliseconds (bounds absurd values). */
export const MAX_DELAY_MS = 120_000;

/**
 * The defaults of a fault's fields, the same for `--fault` flags, scenario files and the admin API:
 * `delay` waits a random 1,000–3,000 ms, `status` answers HTTP 500, `envelope` answers `result: 0`.
 */
export const FAULT_DEFAULTS = { delayMs: [1000, 3000] as [number, number], status: 500, envelopeResult: 0 } as const;

/** The fault kinds that replace (or withhold) the answer: all but `delay`, which only postpones it. */
export function isOutcomeFault(fault: Pick<Fault, 'kind'>): boolean {
  return fault.kind !== 'delay';
}

/** How long a `hang` holds a request before giving up on it, in milliseconds. */
export const HANG_MS = 300_000;

/**
 * Whether the `n`-th request (0-based) seen by a fault with this `rate` and `seed` is hit. Pure and
 * deterministic: the same seed hits the same requests on every run.
 */
export function faultHits(fault: Pick<Fault, 'rate' | 'seed'>, n: number): boolean {
  const rate = fault.rate ?? 1;
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  // mulberry32 over seed and request number.
  let t = (((fault.seed ?? 1) ^ Math.imul(n + 1, 0x9e3779b9)) + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296 < rate;
}

/** The delay of a `delay` fault in milliseconds (a random value within a range). */
export function delayOf(fault: Extract<Fault, { kind: 'delay' }>): number {
  if (typeof fault.ms === 'number') return fault.ms;
  const [min, max] = fault.ms;
  return min + Math.floor(Math.random() * (max - min + 1));
}

/**
 * A fault in the `--fault` grammar, `[OPERATION=]KIND[:ARG][@DEVICE]`, the inverse of
 * `parseFaultFlag` for the fields a flag can say: `meta/cp=status:503`, `delay:200-800`,
 * `envelope:-3`, `reset`, `meta/cp=reset@ab12` (aimed at the device `device`). `rate` and `seed`,
 * which a flag cannot say, follow as ` (rate 0.3, seed 1)`.
 */
export function faultSpec(operation: string | undefined, fault: Fault, device?: string): string {
  let arg = '';
  if (fault.kind === 'delay') arg = typeof fault.ms === 'number' ? `:${fault.ms}` : `:${fault.ms[0]}-${fault.ms[1]}`;
  else if (fault.kind === 'status') arg = `:${fault.status}`;
  else if (fault.kind === 'envelope' && fault.result !== undefined) arg = `:${fault.result}`;
  const share = fault.rate !== undefined && fault.rate < 1 ? ` (rate ${fault.rate}, seed ${fault.seed ?? 1})` : '';
  return `${operation ? `${operation}=` : ''}${fault.kind}${arg}${device === undefined ? '' : `@${device}`}${share}`;
}

/**
 * The faults one request gets from server-wide faults (`serverWide`, at most one `delay` and one
 * other kind, see `FaultBoard.take`) and from its scenario (`own`, a stub's or the scenario's
 * `faults` overlay): server-wide faults win kind by kind, so `--fault delay:500` slows down a
 * scenario's `status` fault and `--fault status:503` replaces its `reset`. The `delay` comes first.
 */
export function combineFaults(serverWide: readonly Fault[], own: Fault | undefined): Fault[] {
  if (!own) return [...serverWide];
  const clashes = serverWide.some((fault) => isOutcomeFault(fault) === isOutcomeFault(own));
  if (clashes) return [...serverWide];
  return isOutcomeFault(own) ? [...serverWide, own] : [own, ...serverWide];
}
