import { z } from 'zod';
import { parseDeepLink } from './deep-link.js';
import { ITEM_ID, POSITION, targetProblems } from './recommended-video-target.js';

export { ITEM_ID, POSITION, RECOMMENDATION_PLACEMENT, TARGET_PARAMETERS, targetProblems } from './recommended-video-target.js';

/**
 * A recommended video item, used by `localplay/recomm` and `localplay/diversion`. `duration` is in
 * **seconds**; `order` is a rank weight that may repeat; `target` is checked by {@link targetProblems}
 * (its `position` index is checked by the list schemas, which know the index).
 *
 * @see seed "Resources and their fields" → "Recommended video item".
 */
export const recommendedVideoSchema = z
  .strictObject({
    id: z.string().regex(ITEM_ID, 'id must have the shape V-<provider_id>-<video_id>'),
    title: z.string(),
    duration: z.number().int(),
    image_url: z.string(),
    order: z.number().int(),
    type: z.string(),
    target: z.string(),
    target_addition: z.array(z.string()),
    top_left_logo: z.string(),
    top_right_logo: z.string(),
  })
  .superRefine((item, ctx) => {
    for (const [, message] of targetProblems(item.target, item.id)) {
      if (!message.startsWith('position index')) ctx.addIssue({ code: 'custom', path: ['target'], message });
    }
  });

/** One recommended video item. @see seed "Recommended video item". */
export type RecommendedVideo = z.infer<typeof recommendedVideoSchema>;

/**
 * A list of recommended video items whose `target` `position` indexes run from 0 in list order.
 * @see seed "Recommended video item" → `position`.
 */
export const recommendedVideoListSchema = z.array(recommendedVideoSchema).superRefine((items, ctx) => {
  items.forEach((item, index) => {
    const m = POSITION.exec(parseDeepLink(item.target)?.query.find(([n]) => n === 'position')?.[1] ?? '');
    if (m && Number(m[2]) !== index) {
      ctx.addIssue({ code: 'custom', path: [index, 'target'], message: `position index must be the zero-based place in the list (${index}), found ${m[2]}` });
    }
  });
});

/** The `data` of `localplay/recomm`: an array of recommended video items. @see seed "Operations" #6. */
export const recommendationsSchema = recommendedVideoListSchema;
