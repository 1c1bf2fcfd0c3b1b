/**
 * Arbitraries of recommended video items and their lists (`localplay/recomm`, the diversion set).
 * An item is drawn as a draft without its place, then placed: its `target`'s `position` carries the
 * zero-based index in its list, as the contract requires. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { encodeQueryValue } from '../contract/deep-link.js';
import { DIVERSION_ARRAYS, type DiversionSet } from '../contract/diversion.js';
import { RECOMMENDATION_PLACEMENT, TARGET_PARAMETERS, type RecommendedVideo } from '../contract/recommended-video.js';
import { nestedLinkValue } from './deep-links.js';
import { listOf, type FuzzOptions } from './options.js';
import { host, imageUrl, integer, optionalImageUrl, scheme, shortId, title, videoId } from './text.js';

/** The values the seed only observed for an item (`type`, `action`, placement, `ref`). */
const OBSERVED_ITEM = {
  type: 'video',
  action: 'playVideo',
  placement: RECOMMENDATION_PLACEMENT,
  ref: 'LOCALRECOMM',
} as const;

/** A recommended video item before it has a place in a list. */
export interface ItemDraft {
  item: Omit<RecommendedVideo, 'target'>;
  /** The `target` link's scheme and host (the provider). */
  scheme: string;
  host: string;
  /** Decoded values of the target's plain query parameters, and the raw (encoded) `default` and `back_scheme`. */
  values: {
    action: string;
    fullscreen: string;
    transparent: string;
    mode: string;
    language: string;
    placement: string;
    ref: string;
  };
  rawDefault: string;
  rawBackScheme: string;
}

/** An observed value, or any non-empty text without `|` when beyond-observed answers are asked for. */
const observedOr = (value: string, options: FuzzOptions): fc.Arbitrary<string> =>
  options.beyondObserved
    ? fc.oneof({ arbitrary: fc.constant(value), weight: 2 }, fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/))
    : fc.constant(value);

const booleanText = fc.constantFrom('true', 'false');

/** A draft recommended video item. */
function itemDraft(options: FuzzOptions): fc.Arbitrary<ItemDraft> {
  return fc
    .record({
      provider: shortId,
      video: videoId,
      title,
      duration: integer(fc.nat(7200)),
      image_url: imageUrl,
      order: integer(fc.integer({ min: -5, max: 100 })),
      type: observedOr(OBSERVED_ITEM.type, options),
      addition: fc.array(shortId, { maxLength: 2 }),
      top_left_logo: optionalImageUrl,
      top_right_logo: optionalImageUrl,
      scheme,
      host,
      action: observedOr(OBSERVED_ITEM.action, options),
      fullscreen: booleanText,
      transparent: booleanText,
      mode: fc.constantFrom('', 'normal', 'mini', 'float'),
      language: fc.constantFrom('', 'english', 'hindi', 'العربية', 'עברית'),
      placement: observedOr(OBSERVED_ITEM.placement, options),
      ref: observedOr(OBSERVED_ITEM.ref, options),
      rawDefault: nestedLinkValue,
      rawBackScheme: nestedLinkValue,
    })
    .map((d) => ({
      item: {
        id: `V-${d.provider}-${d.video}`,
        title: d.title,
        duration: d.duration,
        image_url: d.image_url,
        order: d.order,
        type: d.type,
        target_addition: d.addition.map((id) => `${d.scheme}://${d.host}/log?event=VIEW&id=${id}`),
        top_left_logo: d.top_left_logo,
        top_right_logo: d.top_right_logo,
      },
      scheme: d.scheme,
      host: d.host,
      values: {
        action: d.action,
        fullscreen: d.fullscreen,
        transparent: d.transparent,
        mode: d.mode,
        language: d.language,
        placement: d.placement,
        ref: d.ref,
      },
      rawDefault: d.rawDefault,
      rawBackScheme: d.rawBackScheme,
    }));
}

/** The raw (encoded) value of each target parameter of a draft at `index`. */
function rawTargetValue(draft: ItemDraft, name: (typeof TARGET_PARAMETERS)[number], index: number): string {
  const { values, item } = draft;
  switch (name) {
    case 'default':
      return draft.rawDefault;
    case 'back_scheme':
      return draft.rawBackScheme;
    case 'id':
      return encodeQueryValue(item.id.slice(item.id.indexOf('-', 2) + 1));
    case 'detail_id':
      return encodeQueryValue(item.id);
    case 'position':
      return encodeQueryValue(`${values.placement}||||${index}`);
    default:
      return encodeQueryValue(values[name]);
  }
}

/** The item of a draft at place `index` of its list: its `target` built in the seed's parameter order. */
function placeItem(draft: ItemDraft, index: number): RecommendedVideo {
  const query = TARGET_PARAMETERS.map((name) => `${name}=${rawTargetValue(draft, name, index)}`).join('&');
  const { item } = draft;
  return {
    id: item.id,
    title: item.title,
    duration: item.duration,
    image_url: item.image_url,
    order: item.order,
    type: item.type,
    target: `${draft.scheme}://${draft.host}?${query}`,
    target_addition: item.target_addition,
    top_left_logo: item.top_left_logo,
    top_right_logo: item.top_right_logo,
  };
}

/** A recommended video item at place 0 of its list (the resource on its own). */
export const recommendedVideo = (options: FuzzOptions = {}): fc.Arbitrary<RecommendedVideo> =>
  itemDraft(options).map((draft) => placeItem(draft, 0));

/** Gives some drafts the `order` of their neighbour (class `order-repeated`). */
const withRepeats = (drafts: ItemDraft[], repeat: boolean): ItemDraft[] =>
  repeat && drafts.length > 1
    ? drafts.map((d, i) => (i % 2 === 1 ? { ...d, item: { ...d.item, order: drafts[i - 1]!.item.order } } : d))
    : drafts;

const byDescendingOrder = (a: ItemDraft, b: ItemDraft) => b.item.order - a.item.order;

/** The `data` of `localplay/recomm`: a list of items (empty, one, few or many), positions in list order. */
export function recommendations(options: FuzzOptions = {}): fc.Arbitrary<RecommendedVideo[]> {
  return fc
    .tuple(listOf(itemDraft(options)), fc.boolean())
    .map(([drafts, repeat]) => withRepeats(drafts, repeat).map(placeItem));
}

/**
 * The `data` of `localplay/diversion`: `end`, `exit` and `suspend`, each in descending `order`.
 * Observed (the default): the three carry the same items. Beyond observed: each its own list.
 */
export function diversionSet(options: FuzzOptions = {}): fc.Arbitrary<DiversionSet> {
  const sorted = fc
    .tuple(listOf(itemDraft(options)), fc.boolean())
    .map(([drafts, repeat]) => withRepeats(drafts, repeat).sort(byDescendingOrder).map(placeItem));
  if (!options.beyondObserved)
    return sorted.map(
      (items) => Object.fromEntries(DIVERSION_ARRAYS.map((name) => [name, items])) as unknown as DiversionSet,
    );
  return fc
    .tuple(sorted, sorted, sorted, fc.boolean())
    .map(([end, exit, suspend, same]) => (same ? { end, exit: end, suspend: end } : { end, exit, suspend }));
}
