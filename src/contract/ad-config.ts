import { z } from 'zod';

/**
 * The `data` of `ad_config`: a JSON object, empty when no advertisement configuration applies.
 * Its fields when not empty are not shown in the seed, so any object is accepted.
 *
 * @see docs/contract.md#ad-configuration.
 */
export const adConfigSchema = z.record(z.string(), z.unknown());

/** An ad configuration object (fields not shown in the seed). @see docs/contract.md#ad-configuration. */
export type AdConfig = z.infer<typeof adConfigSchema>;
