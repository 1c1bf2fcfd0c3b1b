import { z } from 'zod';

/** The schema of {@link AdConfig}: any JSON object (its fields are not shown in the seed). @see docs/contract.md#ad-configuration. */
export const adConfigSchema = z.record(z.string(), z.unknown());

/**
 * The `data` of `ad_config`: a JSON object, **empty** (`{}`) when no advertisement configuration
 * applies; its fields when not empty are not shown in the seed. The type {@link adConfigSchema}
 * infers (the build checks that they are the same).
 *
 * @see docs/contract.md#ad-configuration (seed: "Ad configuration").
 */
export type AdConfig = Record<string, unknown>;
