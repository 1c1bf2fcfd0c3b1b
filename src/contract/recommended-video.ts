import { z } from 'zod';
import { integerSchema } from './integer.js';
import { parseDeepLink } from './deep-link.js';
import { ITEM_ID, POSITION, targetProblems } from './recommended-video-target.js';

/**
 * One recommended video item, used by `localplay/recomm` and `localplay/diversion`: the type
 * {@link recommendedVideoSchema} infers (the build checks that they are the same).
 *
 * @see docs/contract.md#recommended-video (seed: "Recommended video item").
 */
export interface RecommendedVideo {
  /** Item id, shape `V-<provider_id>-<video_id>` (e.g. `V-acme-1042`). */
  id: string;
  /** Title shown to the user; any script, emoji included. */
  title: string;
  /** Length of the video in **seconds** (an integer), e.g. `754` for 12:34. */
  duration: number;
  /** Thumbnail URL. */
  image_url: string;
  /** Rank weight (an integer): higher comes first; equal values may repeat between items. */
  order: number;
  /** Kind of item; seen: `video`. */
  type: string;
  /**
   * Deep link that plays the video: `<scheme>://<provider host>?<query>`, no path; query `action`
   * (seen `playVideo`), `id` (the video id), `fullscreen` and `transparent` (`true`/`false`),
   * `default` (a percent-encoded deep link), `detail_id` (= `id` of the item), `mode`, `language`,
   * `position` (`<placement>||||<index>`, placement `localplayrecomm`, index zero-based in list
   * order), `back_scheme` (a percent-encoded deep link), `ref` (seen `LOCALRECOMM`).
   */
  target: string;
  /** More deep links the client runs when it shows the item (seen: one logging link with `event=VIEW`); may be empty. */
  target_addition: string[];
  /** Image URL; may be an empty string. */
  top_left_logo: string;
  /** Image URL; may be an empty string. */
  top_right_logo: string;
}

/**
 * The schema of a {@link RecommendedVideo}. `duration` is in **seconds**; `order` is a rank weight
 * that may repeat; `target` is checked by {@link targetProblems} (its `position` index is checked by
 * the list schemas, which know the index).
 *
 * @see docs/contract.md#recommended-video.
 */
export const recommendedVideoSchema = z
  .strictObject({
    id: z.string().regex(ITEM_ID, 'id must have the shape V-<provider_id>-<video_id>'),
    title: z.string(),
    duration: integerSchema(),
    image_url: z.string(),
    order: integerSchema(),
    type: z.string(),
    target: z.string(),
    target_addition: z.array(z.string()),
    top_left_logo: z.string(),
    top_right_logo: z.string(),
  })
  .superRefine((item, ctx) => {
    for (const [, message] of targetProblems(item.target, item.id))
      ctx.addIssue({ code: 'custom', path: ['target'], message });
  });

/**
 * A list of recommended video items whose `target` `position` indexes run from 0 in list order.
 * @see docs/contract.md#recommended-video → `position`.
 */
export const recommendedVideoListSchema = z.array(recommendedVideoSchema).superRefine((items, ctx) => {
  items.forEach((item, index) => {
    const m = POSITION.exec(parseDeepLink(item.target)?.query.find(([n]) => n === 'position')?.[1] ?? '');
    if (m && Number(m[2]) !== index) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'target'],
        message: `position index must be the zero-based place in the list (${index}), found ${m[2]}`,
      });
    }
  });
});

/**
 * The `data` of `localplay/recomm`: an array of recommended video items. @see docs/contract.md#operations (operation 6).
 * @alias the same schema as {@link recommendedVideoListSchema}, named by its operation (public in `mockvideo/contract`).
 */
export const recommendationsSchema = recommendedVideoListSchema;
