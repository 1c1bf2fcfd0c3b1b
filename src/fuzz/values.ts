/**
 * The leaf arbitraries of the fuzz generator: list sizes, titles (plain, long, mixed-script),
 * identifiers, image URLs, number texts and integers, and a provider's app link from its id. Each
 * takes the draw (`FuzzDraw`) and leaves out the edge classes it switches off. Cheap draws on
 * purpose (a constant list or one integer where the value is not an edge class): `serve --fuzz`
 * draws an answer per request. Built on fast-check; any runtime.
 * @module
 */
import fc from 'fast-check';
import { NUMBER_TEXT } from '../contract/number-text.js';
import { ITEM_ID } from '../contract/recommended-video-target.js';
import { LONG_TEXT, MANY_ITEMS, MAX_ITEMS } from './classes.js';
import { isOn, type FuzzDraw } from './options.js';

type Weighted<T> = { arbitrary: fc.Arbitrary<T>; weight: number };

/** `fc.oneof` of the weighted arbitraries whose class is on (`null` for one of no class). */
function oneOfOn<T>(draw: FuzzDraw, choices: ReadonlyArray<[string | null, Weighted<T>]>): fc.Arbitrary<T> {
  return fc.oneof(...choices.filter(([name]) => name === null || isOn(draw, name)).map(([, choice]) => choice));
}

/**
 * A list of 0 (class `items-empty`), 1 (`items-one`), 2–5 or {@link MANY_ITEMS}–{@link MAX_ITEMS}
 * (`items-many`, one list in 80, its length uniform over that range: fast-check's size bias would
 * keep it near {@link MANY_ITEMS}) elements.
 */
export function listOf<T>(element: fc.Arbitrary<T>, draw: FuzzDraw): fc.Arbitrary<T[]> {
  const many = fc
    .noBias(fc.integer({ min: MANY_ITEMS, max: MAX_ITEMS }))
    .chain((length) => fc.array(element, { minLength: length, maxLength: length }));
  return oneOfOn(draw, [
    ['items-empty', { arbitrary: fc.constant([] as T[]), weight: 16 }],
    ['items-one', { arbitrary: fc.array(element, { minLength: 1, maxLength: 1 }), weight: 16 }],
    [null, { arbitrary: fc.array(element, { minLength: 2, maxLength: 5 }), weight: 47 }],
    ['items-many', { arbitrary: many, weight: 1 }],
  ]);
}

/** The host of every absolute URL the generator writes: answers never depend on the request's origin, so a case rebuilds the same bytes anywhere. */
export const FUZZ_ORIGIN = 'https://fuzz.mockvideo.invalid';

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

/** A title over {@link LONG_TEXT} code units, of any script (mixed-script only when that class is on; class `title-long`). */
const longTitle = (draw: FuzzDraw): fc.Arbitrary<string> =>
  fc
    .tuple(
      isOn(draw, 'title-mixed-script')
        ? fc.oneof(mixedScriptTitle, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }))
        : fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 500 }),
    )
    .map(([chunk, length]) => chunk.repeat(Math.ceil((LONG_TEXT + length) / chunk.length)));

/** Words of everyday titles, with the characters a client must escape or render as they are. */
const WORDS = 'The Night Cricket Live: Tom&Jerry "Quoted" C:\\path <b> 100% a+b #1 São x'.split(' ');

/** A title: mostly everyday words (`&` included, written `\u0026`), sometimes empty, long, mixed-script or of any grapheme. */
export const title = (draw: FuzzDraw): fc.Arbitrary<string> =>
  oneOfOn(draw, [
    [
      null,
      {
        arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
        weight: 6,
      },
    ],
    ['title-mixed-script', { arbitrary: mixedScriptTitle, weight: 2 }],
    ['title-long', { arbitrary: longTitle(draw), weight: 1 }],
    [null, { arbitrary: fc.constant(''), weight: 1 }],
    [null, { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 }],
  ]);

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

/** One of `values`, or also `''` (the seed: "may be an empty string") when `string-empty-optional` is on. */
export const optional = (draw: FuzzDraw, values: readonly string[]): fc.Arbitrary<string> =>
  fc.constantFrom(...(isOn(draw, 'string-empty-optional') ? values : values.filter((value) => value !== '')));

/** An image URL that may be an empty string, one in four (class `string-empty-optional`). */
export const optionalImageUrl = (draw: FuzzDraw): fc.Arbitrary<string> =>
  optional(
    draw,
    ['hd', 'new', '', 'a'].map((name) => (name ? imageUrl(name) : '')),
  );

/** A number as text, usually a small integer, sometimes any spelling the contract's `NUMBER_TEXT` allows (`-1.5e3`, `.5`, `+7`: class `number-text-unusual`). */
export const numberText = (draw: FuzzDraw): fc.Arbitrary<string> =>
  oneOfOn(draw, [
    [null, { arbitrary: fc.nat(20).map(String), weight: 4 }],
    ['number-text-unusual', { arbitrary: fc.stringMatching(NUMBER_TEXT, { size: 'xsmall' }), weight: 1 }],
  ]);

/** `true` or `false` as text. */
export const booleanText = fc.constantFrom('true', 'false');
