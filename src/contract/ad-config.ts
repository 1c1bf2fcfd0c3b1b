import { z } from 'zod';

/**
 * The `data` of `ad_config`: a JSON object, empty when no advertisement configuration applies.
 * Its fields when not empty are not shown in the seed, so any object is accepted.
 *
 * @see seed "Resources and their fields" → "Ad configuration (data of `ad_config`)".
 */
export const adConfigSchema = z.record(z.string(), z.unknown());

/** An ad configuration object (fields not shown in the seed). @see seed "Ad configuration". */
export type AdConfig = z.infer<typeof adConfigSchema>;
