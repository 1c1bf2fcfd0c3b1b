import { z } from 'zod';

/** The fault kinds, named the same in scenario files, `--fault` flags and the admin API. */
export const FAULT_KINDS = ['delay', 'status', 'envelope', 'malformed-json', 'empty', 'reset', 'hang'] as const;

/** One fault kind. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The longest delay a fault may ask for, in milliseconds (bounds absurd values). */
export const MAX_DELAY_MS = 120_000;

/** How long a `hang` holds a request before giving up on it, in milliseconds. */
export const HANG_MS = 300_000;

const share = {
  rate: z.number().min(0).max(1).optional().describe('Share of requests the fault hits, 0 to 1; default 1 (every request).'),
  seed: z.number().int().optional().describe('Seed of the deterministic choice of which requests a rate hits; default 1.'),
};

/** Statuses whose answers cannot carry a body (the Fetch API refuses one, and every answer here has one). */
const BODILESS_STATUSES = [204, 205, 304];

/**
 * The HTTP status of an answer mockvideo makes: 200–599 and not 204, 205 or 304 (every answer has a
 * body; a 1xx is not a final answer). Shared by stubs and `status` faults.
 */
export const answerStatusSchema = z
  .number()
  .int()
  .min(200)
  .max(599)
  .refine((status) => !BODILESS_STATUSES.includes(status), 'a status of 204, 205 or 304 cannot carry the answer\'s body');

const delayMs = z.union([
  z.number().int().min(0).max(MAX_DELAY_MS),
  z.tuple([z.number().int().min(0).max(MAX_DELAY_MS), z.number().int().min(0).max(MAX_DELAY_MS)]).refine(([a, b]) => a <= b, 'a delay range is [min, max] with min ≤ max'),
]);

/**
 * A fault: what goes wrong with an answer. Times are in **milliseconds**.
 * - `delay`: answer normally after `ms` (a number, or `[min, max]` for a random delay in that range);
 * - `status`: HTTP `status` with `body` (text; default a JSON error);
 * - `envelope`: status 200 with an envelope whose `result` is not 1 (default 0) and a `msg`;
 * - `malformed-json`: status 200 with JSON text cut off mid-way;
 * - `empty`: status 200 with an empty body;
 * - `reset`: the connection is reset, no answer;
 * - `hang`: no answer until the client gives up.
 * `rate` and `seed` make a fault hit a deterministic share of requests.
 *
 * The seed's "Errors" section does not show what a failure looks like; these kinds cover what a
 * client must survive (it logs failed fetches of operations 1, 3 and 4).
 */
export const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('delay'), ms: delayMs, ...share }),
  z.strictObject({ kind: z.literal('status'), status: answerStatusSchema, body: z.string().optional(), ...share }),
  z.strictObject({ kind: z.literal('envelope'), result: z.number().int().refine((r) => r !== 1, 'an envelope fault needs a result other than 1').optional(), msg: z.string().optional(), ...share }),
  z.strictObject({ kind: z.literal('malformed-json'), ...share }),
  z.strictObject({ kind: z.literal('empty'), ...share }),
  z.strictObject({ kind: z.literal('reset'), ...share }),
  z.strictObject({ kind: z.literal('hang'), ...share }),
]);

/** A fault. @see faultSchema */
export type Fault = z.infer<typeof faultSchema>;

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
