/**
 * The envelope's success values and shape, without zod (what `serve` needs to write answers); the
 * runtime schema is `envelopeSchema` in `envelope-schema.ts`.
 * @module
 */

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

/** An envelope `{ data, msg, result }` around a payload of type `T`. @see seed "Response envelope". */
export interface Envelope<T> {
  data: T;
  msg: string;
  result: number;
}
