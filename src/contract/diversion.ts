import { z } from 'zod';
import { recommendedVideoListSchema, type RecommendedVideo } from './recommended-video.js';

/** The three arrays of a diversion set, in the seed's order. @see docs/contract.md#diversion-set. */
export const DIVERSION_ARRAYS = ['end', 'exit', 'suspend'] as const;

/**
 * The `data` of `localplay/diversion`: three arrays of recommended video items; the type
 * {@link diversionSetSchema} infers (the build checks that they are the same). That the
 * three arrays carry the same items, each in descending `order`, is observed, not required (seed:
 * "Observed: …"), so neither is enforced.
 *
 * @see docs/contract.md#diversion-set (seed: "Diversion set").
 */
export interface DiversionSet {
  /** The `end` array: recommended video items, observed in descending `order` (equal values may repeat); may be empty. What `end` means to the client is not shown in the seed. */
  end: RecommendedVideo[];
  /** The `exit` array: recommended video items, observed in descending `order` (equal values may repeat); may be empty. What `exit` means to the client is not shown in the seed. */
  exit: RecommendedVideo[];
  /** The `suspend` array: recommended video items, observed in descending `order` (equal values may repeat); may be empty. What `suspend` means to the client is not shown in the seed. */
  suspend: RecommendedVideo[];
}

/** The schema of a {@link DiversionSet}: three lists of recommended video items, in any `order` (descending is observed only). @see docs/contract.md#diversion-set. */
export const diversionSetSchema = z.strictObject({
  end: recommendedVideoListSchema,
  exit: recommendedVideoListSchema,
  suspend: recommendedVideoListSchema,
});
