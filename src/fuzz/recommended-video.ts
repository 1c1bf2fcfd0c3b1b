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
import {
  appLink,
  booleanText,
  imageUrl,
  integer,
  listOf,
  optionalImageUrl,
  shortId,
  title,
  videoId,
  type FuzzOptions,
} from './values.js';

/** The values the seed only observed for an item (`type`, `action`, placement, `ref`). */
const OBSERVED = { type: 'video', action: 'playVideo', placement: RECOMMENDATION_PLACEMENT, ref: 'LOCALRECOMM' };

/** The observed values; beyond observed, each sometimes any identifier (no character to escape in a query). */
function observed(options: FuzzOptions): fc.Arbitrary<typeof OBSERVED> {
  if (!options.beyondObserved) return fc.constant(OBSERVED);
  const other = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
  const vary = (value: string) => fc.oneof({ arbitrary: fc.constant(value), weight: 2 }, other);
  const fields = Object.entries(OBSERVED).map(([name, value]) => [name, vary(value)]);
  return fc.record(Object.fromEntries(fields)) as fc.Arbitrary<typeof OBSERVED>;
}

/**
 * How a nested deep link is spelled: the service's way, nesting another link (class
 * `deep-link-double-encoded`), or re-spelled by {@link respell} flags (class `deep-link-unusual-encoding`).
 */
const linkSpelling: fc.Arbitrary<{ nesting: boolean; flags: readonly number[] }> = fc.oneof(
  { arbitrary: fc.constant({ nesting: false, flags: [] }), weight: 6 },
  { arbitrary: fc.constant({ nesting: true, flags: [] }), weight: 2 },
  {
    arbitrary: fc.record({ nesting: fc.boolean(), flags: fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }) }),
    weight: 2,
  },
);

/** A recommended video item before it has a place in a list. */
function itemDraft(options: FuzzOptions) {
  return fc.record({
    provider: shortId,
    video: videoId,
    title,
    duration: integer(fc.nat(7200)),
    order: integer(fc.integer({ min: -5, max: 100 })),
    seen: observed(options),
    additions: fc.nat(2),
    top_left_logo: optionalImageUrl,
    top_right_logo: optionalImageUrl,
    fullscreen: booleanText,
    transparent: booleanText,
    default: linkSpelling,
    mode: fc.constantFrom('', 'normal', 'mini', 'float'),
    language: fc.constantFrom(...['', 'english', 'hindi', 'العربية', 'עברית'].map(encodeURIComponent)),
    back_scheme: linkSpelling,
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
export const recommendedVideo = (options: FuzzOptions = {}): fc.Arbitrary<RecommendedVideo> =>
  itemDraft(options).map((draft) => placeItem(draft, 0));

/** A list of drafts, some given the `order` of their neighbour when `repeat` (class `order-repeated`). */
const drafts = (options: FuzzOptions) =>
  fc
    .tuple(listOf(itemDraft(options)), fc.boolean())
    .map(([list, repeat]) =>
      repeat ? list.map((d, i) => (i % 2 === 1 ? { ...d, order: list[i - 1]!.order } : d)) : list,
    );

/** The `data` of `localplay/recomm`: a list of items (empty, one, few or many), positions in list order. */
export const recommendations = (options: FuzzOptions = {}): fc.Arbitrary<RecommendedVideo[]> =>
  drafts(options).map((list) => list.map(placeItem));

/**
 * The `data` of `localplay/diversion`: `end`, `exit` and `suspend`, each in descending `order`.
 * Observed (the default): the three carry the same items. Beyond observed: each its own list.
 */
export function diversionSet(options: FuzzOptions = {}): fc.Arbitrary<DiversionSet> {
  const sorted = drafts(options).map((list) => [...list].sort((a, b) => b.order - a.order).map(placeItem));
  if (!options.beyondObserved) return sorted.map((items) => ({ end: items, exit: items, suspend: items }));
  return fc
    .tuple(sorted, sorted, sorted, fc.boolean())
    .map(([end, exit, suspend, same]) => (same ? { end, exit: end, suspend: end } : { end, exit, suspend }));
}
