/**
 * The rules of a recommended video item's id and `target` deep link, without zod: the checks the
 * item schemas of `recommended-video.ts` run, and what scenario consistency checks need.
 * @module
 */
import { isEncodedDeepLink, parseDeepLink } from './deep-link.js';

/** Item id shape `V-<provider_id>-<video_id>`; groups: provider id, video id. @see docs/contract.md#recommended-video. */
export const ITEM_ID = /^V-([^-]+)-(.+)$/;

/** `position` shape `<placement>||||<index>`; groups: placement, zero-based index. @see docs/contract.md#recommended-video. */
export const POSITION = /^([^|]+)\|\|\|\|(\d+)$/;

/** The placement observed in `position`. @see docs/contract.md#recommended-video. */
export const RECOMMENDATION_PLACEMENT = 'localplayrecomm';

/** The query parameters of a `target` deep link, in the seed's order. @see docs/contract.md#recommended-video. */
export const TARGET_PARAMETERS = [
  'action',
  'id',
  'fullscreen',
  'transparent',
  'default',
  'detail_id',
  'mode',
  'language',
  'position',
  'back_scheme',
  'ref',
] as const;

/**
 * What is wrong with an item's `target` deep link, as `[queryParameter, message]` pairs (empty when
 * nothing is). The `position` index is checked by the list schemas, which know the item's place.
 *
 * Rules: no path; the parameters of {@link TARGET_PARAMETERS} present; `id` equals the video id of the
 * item id; `detail_id` equals the item id; `fullscreen`/`transparent` are `true`/`false`; `default`
 * and `back_scheme` are percent-encoded deep links; `position` is `<placement>||||<index>`.
 *
 * @see docs/contract.md#recommended-video (the `target` link).
 */
export function targetProblems(target: string, itemId: string): Array<[string, string]> {
  const link = parseDeepLink(target);
  if (!link) return [['', 'target must be a deep link of the form <scheme>://<provider host>?<query>']];
  const problems: Array<[string, string]> = [];
  if (link.host === '') problems.push(['', 'target must have the host of the provider']);
  if (link.path !== '') problems.push(['', `target must have no path, found "${link.path}"`]);
  const value = (name: string) => link.query.find(([n]) => n === name)?.[1];
  const raw = (name: string) => link.rawQuery.find(([n]) => n === name)?.[1];
  for (const name of TARGET_PARAMETERS) {
    if (value(name) === undefined) problems.push([name, `target is missing the query parameter ${name}`]);
  }
  const videoId = ITEM_ID.exec(itemId)?.[2];
  if (videoId !== undefined && value('id') !== undefined && value('id') !== videoId) {
    problems.push(['id', `id must be the video id "${videoId}" of the item id, found "${value('id')}"`]);
  }
  if (value('detail_id') !== undefined && value('detail_id') !== itemId) {
    problems.push(['detail_id', `detail_id must equal the item id "${itemId}", found "${value('detail_id')}"`]);
  }
  for (const name of ['fullscreen', 'transparent']) {
    const v = value(name);
    if (v !== undefined && v !== 'true' && v !== 'false')
      problems.push([name, `${name} must be true or false, found "${v}"`]);
  }
  for (const name of ['default', 'back_scheme']) {
    const r = raw(name);
    if (r !== undefined && !isEncodedDeepLink(r))
      problems.push([name, `${name} must be a percent-encoded deep link, found "${r}"`]);
  }
  const position = value('position');
  if (position !== undefined && !POSITION.test(position))
    problems.push(['position', `position must have the shape <placement>||||<index>, found "${position}"`]);
  return problems;
}
