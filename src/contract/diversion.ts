import { z } from 'zod';
import { recommendedVideoListSchema, type RecommendedVideo } from './recommended-video.js';

/** The three arrays of a diversion set, in the seed's order. @see docs/contract.md#diversion-set. */
export const DIVERSION_ARRAYS = ['end', 'exit', 'suspend'] as const;

const descendingList = recommendedVideoListSchema.superRefine((items, ctx) => {
  for (let i = 1; i < items.length; i++) {
    if (items[i]!.order > items[i - 1]!.order) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'order'],
        message: `items must appear in descending order: ${items[i]!.order} follows ${items[i - 1]!.order}`,
      });
    }
  }
});

/**
 * The `data` of `localplay/diversion`: three arrays of recommended video items; the type
 * {@link diversionSetSchema} infers (the build checks that they are the same). That the
 * three arrays carry the same items is observed, not required, so it is not enforced.
 *
 * @see docs/contract.md#diversion-set (seed: "Diversion set").
 */
export interface DiversionSet {
  /** The `end` array: recommended video items in descending `order` (equal values may repeat); may be empty. What `end` means to the client is not shown in the seed. */
  end: RecommendedVideo[];
  /** The `exit` array: recommended video items in descending `order` (equal values may repeat); may be empty. What `exit` means to the client is not shown in the seed. */
  exit: RecommendedVideo[];
  /** The `suspend` array: recommended video items in descending `order` (equal values may repeat); may be empty. What `suspend` means to the client is not shown in the seed. */
  suspend: RecommendedVideo[];
}

/** The schema of a {@link DiversionSet}: each array in descending `order` (equal values may repeat). @see docs/contract.md#diversion-set. */
export const diversionSetSchema = z.strictObject({
  end: descendingList,
  exit: descendingList,
  suspend: descendingList,
});
