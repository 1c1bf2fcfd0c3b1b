import { z } from 'zod';
import { BODILESS_STATUSES } from '../contract/http-wire.js';
import { FAULT_DEFAULTS, FAULT_RULES, MAX_DELAY_MS } from './fault.js';

const share = {
  rate: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Share of requests the fault hits, 0 to 1; default 1 (every request).'),
  seed: z
    .number()
    .int()
    .optional()
    .describe('Seed of the deterministic choice of which requests a rate hits; default 1.'),
};

/**
 * The HTTP status of an answer mockvideo makes: 200–599 and not 204, 205 or 304 (every answer has a
 * body; a 1xx is not a final answer). Shared by stubs and `status` faults.
 */
export const answerStatusSchema = z
  .number()
  .int()
  .min(200)
  .max(599)
  .refine((status) => !BODILESS_STATUSES.includes(status), FAULT_RULES.bodilessStatus);

const ms = z.number().int().min(0).max(MAX_DELAY_MS);
const delayMs = z.union([ms, z.tuple([ms, ms]).refine(([a, b]) => a <= b, FAULT_RULES.delayRange)]);

/**
 * A fault: what goes wrong with an answer. Times are in **milliseconds**. Every field but `kind` has
 * a default ({@link FAULT_DEFAULTS}), the same in scenario files, `--fault` flags and the admin API.
 * - `delay`: answer normally after `ms` (a number, or `[min, max]` for a random delay in that range;
 *   default `[1000, 3000]`);
 * - `status`: HTTP `status` (default 500) with `body` (text; default a JSON error);
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
  z.strictObject({
    kind: z.literal('delay'),
    ms: delayMs
      .default((): [number, number] => [FAULT_DEFAULTS.delayMs[0], FAULT_DEFAULTS.delayMs[1]])
      .describe('Milliseconds, or [min, max] for a random delay in that range; default [1000, 3000].'),
    ...share,
  }),
  z.strictObject({
    kind: z.literal('status'),
    status: answerStatusSchema.default(FAULT_DEFAULTS.status).describe('The HTTP status; default 500.'),
    body: z.string().optional(),
    ...share,
  }),
  z.strictObject({
    kind: z.literal('envelope'),
    result: z
      .number()
      .int()
      .refine((r) => r !== 1, FAULT_RULES.envelopeResult)
      .optional()
      .describe(
        'The envelope result, not 1; default 0 (FAULT_DEFAULTS.envelopeResult, applied when the answer is made).',
      ),
    msg: z.string().optional(),
    ...share,
  }),
  z.strictObject({ kind: z.literal('malformed-json'), ...share }),
  z.strictObject({ kind: z.literal('empty'), ...share }),
  z.strictObject({ kind: z.literal('reset'), ...share }),
  z.strictObject({ kind: z.literal('hang'), ...share }),
]);

/** A fault (see {@link faultSchema}). */
export type Fault = z.infer<typeof faultSchema>;
