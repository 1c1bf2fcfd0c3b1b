import { z } from 'zod';
import { parseDeepLink } from './deep-link.js';
import { ITEM_ID, POSITION, targetProblems } from './recommended-video-target.js';

export { ITEM_ID, POSITION, RECOMMENDATION_PLACEMENT, TARGET_PARAMETERS, targetProblems } from './recommended-video-target.js';

/**
 * A recommended video item, used by `localplay/recomm` and `localplay/diversion`. `duration` is in
 * **seconds**; `order` is a rank weight that may repeat; `target` is checked by {@link targetProblems}
 * (its `position` index is checked by the list schemas, which know the index).
 *
 * @see docs/contract.md#recommended-video.
 */
export const recommendedVideoSchema = z
  .strictObject({
    /** Item id, `V-<provider_id>-<video_id>`. */
    id: z.string().regex(ITEM_ID, 'id must have the shape V-<provider_id>-<video_id>'),
    /** Title shown to the user; any script, emoji included. */
    title: z.string(),
    /** Length of the video in **seconds** (an integer). */
    duration: z.number().int(),
    /** Thumbnail URL. */
    image_url: z.string(),
    /** Rank weight: higher comes first; equal values may repeat. */
    order: z.number().int(),
    /** Kind of item; seen: `video`. */
    type: z.string(),
    /** Deep link that plays the video: provider as host, query `action`, `id`, `fullscreen`, `transparent`, `default`, `detail_id` (= `id`), `mode`, `language`, `position` (`<placement>||||<index>`), `back_scheme`, `ref`. */
    target: z.string(),
    /** More deep links the client runs when it shows the item (seen: one logging link with `event=VIEW`). */
    target_addition: z.array(z.string()),
    /** Image URL; may be an empty string. */
    top_left_logo: z.string(),
    /** Image URL; may be an empty string. */
    top_right_logo: z.string(),
  })
  .superRefine((item, ctx) => {
    for (const [, message] of targetProblems(item.target, item.id)) {
      if (!message.startsWith('position index')) ctx.addIssue({ code: 'custom', path: ['target'], message });
    }
  });

/** One recommended video item. @see docs/contract.md#recommended-video. */
export type RecommendedVideo = z.infer<typeof recommendedVideoSchema>;

/**
 * A list of recommended video items whose `target` `position` indexes run from 0 in list order.
 * @see docs/contract.md#recommended-video → `position`.
 */
export const recommendedVideoListSchema = z.array(recommendedVideoSchema).superRefine((items, ctx) => {
  items.forEach((item, index) => {
    const m = POSITION.exec(parseDeepLink(item.target)?.query.find(([n]) => n === 'position')?.[1] ?? '');
    if (m && Number(m[2]) !== index) {
      ctx.addIssue({ code: 'custom', path: [index, 'target'], message: `position index must be the zero-based place in the list (${index}), found ${m[2]}` });
    }
  });
});

/** The `data` of `localplay/recomm`: an array of recommended video items. @see docs/contract.md#operations (operation 6). */
export const recommendationsSchema = recommendedVideoListSchema;
