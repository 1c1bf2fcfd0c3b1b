/**
 * The envelope's success values and shape, without zod (what `serve` needs to write answers); the
 * runtime schema is `envelopeSchema` in `envelope-schema.ts`.
 * @module
 */

/**
 * The `msg` text of a successful response.
 * @see docs/contract.md#envelope; docs/contract.md#errors.
 */
export const SUCCESS_MSG = 'OK';

/**
 * The `result` value of a successful response.
 * @see docs/contract.md#envelope; docs/contract.md#errors.
 */
export const SUCCESS_RESULT = 1;

/** An envelope `{ data, msg, result }` around a payload of type `T`. @see docs/contract.md#envelope. */
export interface Envelope<T> {
  /** The payload; its shape depends on the operation. */
  data: T;
  /** Status text; `OK` on success. */
  msg: string;
  /** `1` on success. */
  result: number;
}
