/**
 * The options and leaf arbitraries of the fuzz generator: list sizes, titles (plain, long,
 * mixed-script), identifiers, image URLs, number texts and extreme integers, and a provider's app
 * link from its id. Cheap draws on purpose (a constant list or one integer where the value is not an
 * edge class): `serve --fuzz` draws an answer per request. Built on fast-check; any runtime.
 * @module
 */
import fc from 'fast-check';
import { NUMBER_TEXT } from '../contract/number-text.js';
import { ITEM_ID } from '../contract/recommended-video-target.js';

/** Options of every fuzz arbitrary. */
export interface FuzzOptions {
  /**
   * Also vary what the seed only observed (default `false`: it holds): the diversion arrays each
   * their own items, `type` other than `video`, placement other than `localplayrecomm`, `ref` other
   * than `LOCALRECOMM`, both or neither of `apk_url`/`cp_link`, plugin `type` other than the two seen.
   */
  beyondObserved?: boolean;
}

/** The most items a drawn list has (class `items-many` starts at {@link MANY_ITEMS}). */
const MAX_ITEMS = 200;

/** Lists of at least this many items fall in the class `items-many`. */
export const MANY_ITEMS = 20;

/** A list of 0 (class `items-empty`), 1 (`items-one`), 2–5 or {@link MANY_ITEMS}–{@link MAX_ITEMS} (`items-many`) elements. */
export function listOf<T>(element: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    { arbitrary: fc.constant([] as T[]), weight: 16 },
    { arbitrary: fc.array(element, { minLength: 1, maxLength: 1 }), weight: 16 },
    { arbitrary: fc.array(element, { minLength: 2, maxLength: 5 }), weight: 47 },
    { arbitrary: fc.array(element, { minLength: MANY_ITEMS, maxLength: MAX_ITEMS }), weight: 1 },
  );
}

/** The host of every absolute URL the generator writes: answers never depend on the request's origin, so a case rebuilds the same bytes anywhere. */
export const FUZZ_ORIGIN = 'https://fuzz.mockvideo.invalid';

/** Strings longer than this many UTF-16 code units count as long (class `title-long`). */
export const LONG_TEXT = 256;

/** Right-to-left letters (Hebrew, Arabic), their combining marks and the bidi controls a title may carry. */
const RTL_LETTERS = [...'אבגדהוזחטיכלמנסעפצקרשת', ...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'];
const COMBINING_MARKS = ['\u0301', '\u0308', '\u0327', '\u05B8', '\u05BC', '\u064B', '\u064E', '\u0651', '\u20DD'];
const OTHER_SCRIPTS = [...'Latin 日本語の動画Кино ภาพยนตร์हिन्दी', '👨‍👩‍👧', '🎬', '\u200F', '\u202E', '\u200D'];

/** A title mixing a right-to-left script with combining marks and other scripts (class `title-mixed-script`). */
const mixedScriptTitle: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom(...RTL_LETTERS), { minLength: 1, maxLength: 12 }),
    fc.array(fc.constantFrom(...COMBINING_MARKS), { minLength: 1, maxLength: 4 }),
    fc.array(fc.constantFrom(...OTHER_SCRIPTS), { maxLength: 12 }),
  )
  .map(([rtl, marks, other]) => [rtl[0], ...marks, ...rtl.slice(1), ...other].join(''));

/** A title over {@link LONG_TEXT} code units, of any script (class `title-long`). */
const longTitle: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(mixedScriptTitle, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 })),
    fc.integer({ min: 1, max: 500 }),
  )
  .map(([chunk, length]) => chunk.repeat(Math.ceil((LONG_TEXT + length) / chunk.length)));

/** Words of everyday titles, with the characters a client must escape or render as they are. */
const WORDS = 'The Night Cricket Live: Tom&Jerry "Quoted" C:\\path <b> 100% a+b #1 São x'.split(' ');

/** A title: mostly everyday words (`&` included, written `\u0026`), sometimes empty, long, mixed-script or of any grapheme. */
export const title: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')), weight: 6 },
  { arbitrary: mixedScriptTitle, weight: 2 },
  { arbitrary: longTitle, weight: 1 },
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
);

/** A short identifier without `-`, `/` or `|` (a provider id, a plugin id): one letter to twelve characters. */
export const shortId: fc.Arbitrary<string> = fc.constantFrom(
  ...'acme p zee5 mx_player hotstar sony_liv_hd2 eros vk'.split(' '),
);

/** A video id: usually alphanumeric, sometimes any grapheme text (dashes, spaces, `%`, `&`, scripts) the contract's `ITEM_ID` allows. */
export const videoId: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.nat().map((n) => n.toString(36)), weight: 4 },
  {
    arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).filter((id) => ITEM_ID.test(`V-p-${id}`)),
    weight: 1,
  },
);

/** The deep link of a provider's app, from its id: `mx_player` → `mxplayerapp://com.mxplayer.player` (no `_` in a scheme). */
export function appLink(id: string): string {
  const name = id.replaceAll('_', '');
  return `${name}app://com.${name}.player`;
}

/** An image URL on {@link FUZZ_ORIGIN}. */
export const imageUrl = (name: string): string => `${FUZZ_ORIGIN}/img/${encodeURIComponent(name)}.png`;

/** An image URL that may be an empty string (the seed: "may be an empty string"), one in four. */
export const optionalImageUrl: fc.Arbitrary<string> = fc.constantFrom(
  ...['hd', 'new', '', 'a'].map((name) => (name ? imageUrl(name) : '')),
);

/** Integers at the edges of what JSON and a client's int types hold (class `integer-extreme`). */
const EXTREME_INTEGERS: readonly number[] = [
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  -1,
];

/** An integer: mostly small and non-negative, sometimes 0 or extreme. */
export const integer = (small: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  fc.oneof(
    { arbitrary: small, weight: 8 },
    { arbitrary: fc.constant(0), weight: 1 },
    { arbitrary: fc.constantFrom(...EXTREME_INTEGERS), weight: 1 },
  );

/** A number as text, usually a small integer, sometimes any spelling the contract's `NUMBER_TEXT` allows (`-1.5e3`, `.5`, `+7`). */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.nat(20).map(String), weight: 4 },
  { arbitrary: fc.stringMatching(NUMBER_TEXT, { size: 'xsmall' }), weight: 1 },
);

/** `true` or `false` as text. */
export const booleanText = fc.constantFrom('true', 'false');
