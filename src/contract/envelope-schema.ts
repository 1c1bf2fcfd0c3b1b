import { z } from 'zod';
import { integerSchema } from './integer.js';

/**
 * Builds the schema of the envelope every operation answers with: `{ data, msg, result }`.
 *
 * `data` is the operation's payload; `msg` is `"OK"` and `result` is `1` on success. The envelope of
 * a failure is not shown in the seed, so `msg` and `result` are only typed here, not pinned.
 *
 * @example envelopeSchema(settingsSchema).parse({ data: {...}, msg: 'OK', result: 1 })
 * @see docs/contract.md#envelope.
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.strictObject({
    data,
    msg: z.string(),
    result: integerSchema(),
  });
}
