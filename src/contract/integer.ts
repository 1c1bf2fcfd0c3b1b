/**
 * The seed's "integer", as a schema: any integer JSON text gives, of any size. The seed bounds none,
 * so neither does validation (zod's `int()` stops at 2^53 - 1; a `Long` of 2^63 - 1 is an integer
 * too). JSON Schema: `{ "type": "integer" }`.
 * @module
 */
import { z } from 'zod';

/** An integer of any size (`1`, `-1`, `2147483648`, `9223372036854775807`). @see docs/contract.md. */
export const integerSchema = () =>
  z.number().refine(Number.isInteger, { error: 'expected an integer' }).meta({ type: 'integer' });
