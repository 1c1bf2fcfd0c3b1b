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

/** The longest delay a fault may ask for, in milliseconds (bounds absurd values). */
export const MAX_DELAY_MS = 120_000;

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
