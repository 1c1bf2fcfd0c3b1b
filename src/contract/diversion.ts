import { z } from 'zod';
import { recommendedVideoListSchema } from './recommended-video.js';

/** The three arrays of a diversion set, in the seed's order. @see docs/contract.md#diversion-set. */
export const DIVERSION_ARRAYS = ['end', 'exit', 'suspend'] as const;

const descendingList = recommendedVideoListSchema.superRefine((items, ctx) => {
  for (let i = 1; i < items.length; i++) {
    if (items[i]!.order > items[i - 1]!.order) {
      ctx.addIssue({ code: 'custom', path: [i, 'order'], message: `items must appear in descending order: ${items[i]!.order} follows ${items[i - 1]!.order}` });
    }
  }
});

/**
 * The `data` of `localplay/diversion`: `{ end, exit, suspend }`, each an array of recommended video
 * items in descending `order` (equal values may repeat). That the three arrays carry the same items
 * is observed, not required, so it is not enforced.
 *
 * @see docs/contract.md#diversion-set.
 */
export const diversionSetSchema = z.strictObject({
  end: descendingList,
  exit: descendingList,
  suspend: descendingList,
});

/** A diversion set. @see docs/contract.md#diversion-set. */
export type DiversionSet = z.infer<typeof diversionSetSchema>;
