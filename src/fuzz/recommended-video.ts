/**
 * Arbitraries of recommended video items and their lists (`localplay/recomm`, the diversion set).
 * An item is drawn as a draft without its place, then placed: its `target` is written in the seed's
 * parameter order and its `position` carries the zero-based index in its list, as the contract
 * requires. The nested deep links (`default`, `back_scheme`) are spelled the service's way, nest
 * another link (percent-encoded twice inside the `target`), or are re-spelled with unusual but valid
 * escapes. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { encodeQueryValue } from '../contract/deep-link.js';
import type { DiversionSet } from '../contract/diversion.js';
import type { RecommendedVideo } from '../contract/recommended-video.js';
import { RECOMMENDATION_PLACEMENT } from '../contract/recommended-video-target.js';
import { durationField, intField } from './integers.js';
import { drawOf, isOn, type FuzzDraw, type FuzzOptions } from './options.js';
import {
  appLink,
  booleanText,
  imageUrl,
  listOf,
  optional,
  optionalImageUrl,
  shortId,
  title,
  videoId,
} from './values.js';

/** The values the seed only observed for an item (`type`, `action`, placement, `ref`). */
const OBSERVED = { type: 'video', action: 'playVideo', placement: RECOMMENDATION_PLACEMENT, ref: 'LOCALRECOMM' };

/** The observed values; beyond observed, each sometimes any identifier (no character to escape in a query). */
function observed(draw: FuzzDraw): fc.Arbitrary<typeof OBSERVED> {
  if (!draw.beyondObserved || !isOn(draw, 'item-unobserved-values')) return fc.constant(OBSERVED);
  const other = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
  const vary = (value: string) => fc.oneof({ arbitrary: fc.constant(value), weight: 2 }, other);
  const fields = Object.entries(OBSERVED).map(([name, value]) => [name, vary(value)]);
  return fc.record(Object.fromEntries(fields)) as fc.Arbitrary<typeof OBSERVED>;
}

/**
 * How a nested deep link is spelled: the service's way, nesting another link (class
 * `deep-link-double-encoded`), or re-spelled by {@link respell} flags (class `deep-link-unusual-encoding`).
 */
function linkSpelling(draw: FuzzDraw): fc.Arbitrary<{ nesting: boolean; flags: readonly number[] }> {
  const nesting = isOn(draw, 'deep-link-double-encoded');
  type Spelling = { nesting: boolean; flags: readonly number[] };
  const choices: Array<{ arbitrary: fc.Arbitrary<Spelling>; weight: number }> = [
    { arbitrary: fc.constant({ nesting: false, flags: [] }), weight: 6 },
  ];
  if (nesting) choices.push({ arbitrary: fc.constant({ nesting: true, flags: [] }), weight: 2 });
  if (isOn(draw, 'deep-link-unusual-encoding'))
    choices.push({
      arbitrary: fc.record({
        nesting: nesting ? fc.boolean() : fc.constant(false),
        flags: fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
      }),
      weight: 2,
    });
  return fc.oneof(...choices);
}

/** A recommended video item before it has a place in a list. */
function itemDraft(draw: FuzzDraw) {
  const spelling = linkSpelling(draw);
  return fc.record({
    provider: shortId,
    video: videoId,
    title: title(draw),
    duration: durationField(draw),
    order: intField(fc.integer({ min: -5, max: 100 }), draw),
    seen: observed(draw),
    additions: fc.nat(2),
    top_left_logo: optionalImageUrl(draw),
    top_right_logo: optionalImageUrl(draw),
    fullscreen: booleanText,
    transparent: booleanText,
    default: spelling,
    mode: optional(draw, ['', 'normal', 'mini', 'float']),
    language: optional(draw, ['', 'english', 'hindi', 'العربية', 'עברית'].map(encodeURIComponent)),
    back_scheme: spelling,
  });
}

type ItemDraft = ReturnType<typeof itemDraft> extends fc.Arbitrary<infer T> ? T : never;

/**
 * Re-spells percent-encoded text in ways `decodeURIComponent` reads the same. `flags` says, per
 * escape or unreserved character (cycled, with a 1 and a 2 added): 1 writes an escape in lower-case
 * hex, 2 and 3 escape an unreserved character (`%41` for `A`; 3 in lower-case).
 */
function respell(encoded: string, drawn: readonly number[]): string {
  const flags = [...drawn, 1, 2];
  let k = 0;
  return encoded.replace(/%[0-9A-F]{2}|[A-Za-z0-9\-_.!~*'()]/g, (token) => {
    const flag = flags[k++ % flags.length]!;
    if (token[0] === '%') return flag === 1 ? token.toLowerCase() : token;
    if (flag < 2) return token;
    const escape = `%${token.charCodeAt(0).toString(16).toUpperCase()}`;
    return flag === 3 ? escape.toLowerCase() : escape;
  });
}

/** The raw value of a nested deep link of the provider (`default`: to the video), as spelled: encoded once or twice, maybe re-spelled. */
function nestedLink(draft: ItemDraft, name: 'default' | 'back_scheme', app: string, video: string): string {
  const { nesting, flags } = draft[name];
  const link = name === 'default' ? `${app}?vid=${video}` : app;
  const encoded = encodeQueryValue(nesting ? `${app}?default=${encodeQueryValue(link)}` : link);
  return flags.length === 0 ? encoded : respell(encoded, flags);
}

/** The item of a draft at place `index` of its list: its `target` with the seed's parameters in the seed's order. */
function placeItem(draft: ItemDraft, index: number): RecommendedVideo {
  const app = appLink(draft.provider);
  const video = encodeQueryValue(draft.video);
  const { fullscreen, transparent, mode, language } = draft;
  const { type, action, placement, ref } = draft.seen;
  return {
    id: `V-${draft.provider}-${draft.video}`,
    title: draft.title,
    duration: draft.duration,
    image_url: imageUrl(draft.video),
    order: draft.order,
    type,
    target:
      `${app}?action=${action}&id=${video}&fullscreen=${fullscreen}&transparent=${transparent}` +
      `&default=${nestedLink(draft, 'default', app, video)}&detail_id=V-${draft.provider}-${video}&mode=${mode}` +
      `&language=${language}&position=${placement}||||${index}&back_scheme=${nestedLink(draft, 'back_scheme', app, video)}` +
      `&ref=${ref}`,
    target_addition: Array.from({ length: draft.additions }, (_, n) => `${app}/log?event=VIEW&id=${n}`),
    top_left_logo: draft.top_left_logo,
    top_right_logo: draft.top_right_logo,
  };
}

/** A recommended video item at place 0 of its list (the resource on its own). */
export const recommendedVideo = (options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<RecommendedVideo> =>
  itemDraft(drawOf(options)).map((draft) => placeItem(draft, 0));

/** `list` with every `order` its own: a repeated one becomes the least unused from 101 on (class `order-repeated` off). */
function distinctOrders(list: ItemDraft[]): ItemDraft[] {
  const used = new Set<number>();
  let next = 101;
  return list.map((d) => {
    if (!used.has(d.order)) return (used.add(d.order), d);
    while (used.has(next)) next++;
    used.add(next);
    return { ...d, order: next };
  });
}

/** A list of drafts, some given the `order` of their neighbour when `repeat` (class `order-repeated`), every order its own with that class off. */
function drafts(draw: FuzzDraw): fc.Arbitrary<ItemDraft[]> {
  const list = listOf(itemDraft(draw), draw);
  if (!isOn(draw, 'order-repeated')) return list.map(distinctOrders);
  return fc
    .tuple(list, fc.boolean())
    .map(([items, repeat]) =>
      repeat ? items.map((d, i) => (i % 2 === 1 ? { ...d, order: items[i - 1]!.order } : d)) : items,
    );
}

/** The `data` of `localplay/recomm`: a list of items (empty, one, few or many), positions in list order. */
export const recommendations = (options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<RecommendedVideo[]> =>
  drafts(drawOf(options)).map((list) => list.map(placeItem));

/** Drafts in descending `order`. */
const descending = (list: readonly ItemDraft[]) => [...list].sort((a, b) => b.order - a.order);

/**
 * The `data` of `localplay/diversion`: `end`, `exit` and `suspend`. Observed (the default): the
 * three carry the same items, in descending `order`. Beyond observed: each its own list (class
 * `diversion-arrays-differ`), and an array in the order drawn, one in two (`diversion-order-unsorted`).
 */
export function diversionSet(options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<DiversionSet> {
  const draw = drawOf(options);
  const unsorted = draw.beyondObserved && isOn(draw, 'diversion-order-unsorted');
  const array = unsorted
    ? fc.tuple(drafts(draw), fc.boolean()).map(([list, sort]) => (sort ? descending(list) : list).map(placeItem))
    : drafts(draw).map((list) => descending(list).map(placeItem));
  if (!draw.beyondObserved || !isOn(draw, 'diversion-arrays-differ'))
    return array.map((items) => ({ end: items, exit: items, suspend: items }));
  return fc
    .tuple(array, array, array, fc.boolean())
    .map(([end, exit, suspend, same]) => (same ? { end, exit: end, suspend: end } : { end, exit, suspend }));
}
