/**
 * Case ids and the answer of a case. A case names one generated answer: the seed, the operation,
 * the device's call number of that operation (from 1) and whether beyond-observed answers were
 * asked for: `42:meta/plugin:3`, `42:meta/plugin:3:beyond`. The answer is drawn with fast-check's
 * `fc.sample` from a seed derived from the case text, so a case rebuilds the same bytes in any
 * process and adapter. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { isOperationName, type OperationName } from '../contract/operation-table.js';
import { classesOf } from './classes.js';
import { answerArbitrary } from './operations.js';

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
export const MAX_SEED = 2 ** 32 - 1;

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
  const fail = (why: string) => new Error(`[mockvideo] Cannot read fuzz case "${text}": ${why}. A case looks like 42:meta/plugin:3 (seed:operation:call), as the x-mockvideo-fuzz header sends it.`);
  if (!m) throw fail('not of the form <seed>:<operation>:<call>[:beyond]');
  if (!isOperationName(m[2]!)) throw fail(`"${m[2]}" is not an operation`);
  const seed = Number(m[1]);
  if (seed > MAX_SEED) throw fail(`the seed is over ${MAX_SEED}`);
  return { seed, operation: m[2], call: Number(m[3]), beyondObserved: m[4] !== undefined };
}

/** Reads a seed (`--fuzz 42`): an integer 0 ≤ seed < 2^32. @throws Error naming the value otherwise. */
export function parseSeed(text: string): number {
  const seed = Number(text);
  if (!/^\d{1,10}$/.test(text.trim()) || seed > MAX_SEED) throw new Error(`[mockvideo] Cannot read fuzz seed "${text}": a seed is an integer from 0 to ${MAX_SEED}.`);
  return seed;
}

/** A random seed, for `serve --fuzz` without one. */
export const randomSeed = (): number => Math.floor(Math.random() * (MAX_SEED + 1));

type AnswerArbitrary = ReturnType<typeof answerArbitrary>;
const arbitraries = new Map<string, AnswerArbitrary>();

/** The answer arbitrary of an operation (built once per operation and option: arbitraries are immutable). */
function arbitraryOf(operation: OperationName, beyondObserved: boolean): AnswerArbitrary {
  const key = `${operation}:${beyondObserved}`;
  let made = arbitraries.get(key);
  if (!made) arbitraries.set(key, (made = answerArbitrary(operation, { beyondObserved })));
  return made;
}

/** The answer of a case (its id or its parts): the same text every time, in every process. */
export function fuzzAnswer(which: string | FuzzCase): FuzzAnswer {
  const parts = typeof which === 'string' ? parseCase(which) : which;
  const id = caseId(parts);
  const [drawn] = fc.sample(arbitraryOf(parts.operation, parts.beyondObserved), { seed: fc.hash(id), numRuns: 1, randomType: 'xoroshiro128plus' });
  return { case: id, operation: parts.operation, text: drawn!.text, classes: classesOf(parts.operation, drawn!.value.data, drawn!.text) };
}
