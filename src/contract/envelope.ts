import { z } from 'zod';

/**
 * The `msg` text of a successful response.
 * @see seed "Resources and their fields" → "Response envelope (all operations)"; "Errors" rule 1.
 */
export const SUCCESS_MSG = 'OK';

/**
 * The `result` value of a successful response.
 * @see seed "Resources and their fields" → "Response envelope (all operations)"; "Errors" rule 1.
 */
export const SUCCESS_RESULT = 1;

/**
 * Builds the schema of the envelope every operation answers with: `{ data, msg, result }`.
 *
 * `data` is the operation's payload; `msg` is `"OK"` and `result` is `1` on success. The envelope of
 * a failure is not shown in the seed, so `msg` and `result` are only typed here, not pinned.
 *
 * @example envelopeSchema(settingsSchema).parse({ data: {...}, msg: 'OK', result: 1 })
 * @see seed "Resources and their fields" → "Response envelope (all operations)".
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.strictObject({
    data,
    msg: z.string(),
    result: z.number().int(),
  });
}

/** An envelope `{ data, msg, result }` around a payload of type `T`. @see seed "Response envelope". */
export interface Envelope<T> {
  data: T;
  msg: string;
  result: number;
}
