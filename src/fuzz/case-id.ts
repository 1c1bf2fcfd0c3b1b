/**
 * Case ids, without fast-check: `<seed>:<operation>:<call>[:beyond]` (`42:meta/plugin:3`). What the
 * routes and the CLI read and write; `case.ts` draws the answer of a case. Any runtime.
 * @module
 */
import { isOperationName, type OperationName } from '../contract/operation-table.js';

/** The parts of a case id. */
export interface FuzzCase {
  /** The run's seed: an integer 0 ≤ seed < 2^32. */
  seed: number;
  operation: OperationName;
  /** The device's call number of this operation, from 1. */
  call: number;
  /** Whether what the seed only observed was varied too. */
  beyondObserved: boolean;
}

/** A generated answer: its case, its JSON text (the body, sent as UTF-8) and the edge classes it falls in. */
export interface FuzzAnswer {
  case: string;
  operation: OperationName;
  text: string;
  classes: string[];
}

/** The largest seed (seeds are unsigned 32-bit integers). */
const MAX_SEED = 2 ** 32 - 1;

/** The case id of its parts, e.g. `42:meta/plugin:3` (`…:beyond` with `beyondObserved`). */
export function caseId(parts: FuzzCase): string {
  return `${parts.seed}:${parts.operation}:${parts.call}${parts.beyondObserved ? ':beyond' : ''}`;
}

const CASE = /^(\d{1,10}):([a-z_/]+):([1-9]\d{0,14})(:beyond)?$/;

/**
 * The parts of a case id.
 * @throws Error naming what is wrong (`[mockvideo] Cannot read fuzz case "…": …`) when it is not one.
 */
export function parseCase(text: string): FuzzCase {
  const m = CASE.exec(text.trim());
  const fail = (why: string) =>
    new Error(
      `[mockvideo] Cannot read fuzz case "${text}": ${why}. A case looks like 42:meta/plugin:3 (seed:operation:call), as the x-mockvideo-fuzz header sends it.`,
    );
  if (!m) throw fail('not of the form <seed>:<operation>:<call>[:beyond]');
  if (!isOperationName(m[2]!)) throw fail(`"${m[2]}" is not an operation`);
  const seed = Number(m[1]);
  if (seed > MAX_SEED) throw fail(`the seed is over ${MAX_SEED}`);
  return { seed, operation: m[2], call: Number(m[3]), beyondObserved: m[4] !== undefined };
}

/** Reads a seed (`--fuzz 42`): an integer 0 ≤ seed < 2^32. @throws Error naming the value otherwise. */
export function parseSeed(text: string): number {
  const seed = Number(text);
  if (!/^\d{1,10}$/.test(text.trim()) || seed > MAX_SEED)
    throw new Error(`[mockvideo] Cannot read fuzz seed "${text}": a seed is an integer from 0 to ${MAX_SEED}.`);
  return seed;
}

/** A random seed, for `serve --fuzz` without one. */
export const randomSeed = (): number => Math.floor(Math.random() * (MAX_SEED + 1));
