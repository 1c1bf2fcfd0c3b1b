/**
 * The options of the fuzz generator (`FuzzOptions`, as `serve --fuzz-*`, `fuzzHandlers` and the
 * arbitraries take them) and what a draw reads of them (`FuzzDraw`): what the seed only observed,
 * the width of the client's integers, the edge classes switched off. Without fast-check: the
 * routes and case ids read it too. Any runtime.
 * @module
 */
import { MockvideoError } from '../errors.js';
import { EDGE_CLASSES } from './classes.js';

/** The width of the client's integer type, in bits: 32 (a Kotlin `Int`, a Java `int`), 53 (a JavaScript number), 64 (a `Long`). */
export type IntegerWidth = 32 | 53 | 64;

/** The widths `--fuzz-integers` takes. */
export const INTEGER_WIDTHS: readonly IntegerWidth[] = [32, 53, 64];

/** Options of every fuzz arbitrary, `fuzzHandlers` and `serve --fuzz`. */
export interface FuzzOptions {
  /**
   * Also vary what the seed only observed (default `false`: it holds): the diversion arrays each
   * their own items and out of descending `order`, `type` other than `video`, placement other than
   * `localplayrecomm`, `ref` other than `LOCALRECOMM`, both or neither of `apk_url`/`cp_link`, plugin
   * `type` other than the two seen, `vendor_market_detail` on a plugin that is no `app_apk`.
   */
  beyondObserved?: boolean;
  /**
   * The width of the client's `int` (default 32): the integer fields draw their extremes at its
   * bounds (class `integer-extreme`). Fields in Unix seconds (`updated_at`) are a 64-bit `Long` at
   * every width (class `time-extreme`). Validation knows no bound: the seed says "integer".
   */
  integers?: IntegerWidth;
  /** Draw only these edge classes (default: every one); names of `EDGE_CLASSES`. */
  classes?: readonly string[];
  /** Draw none of these edge classes; names of `EDGE_CLASSES`. */
  exclude?: readonly string[];
}

/** What a draw reads of the options: all of them set, the classes as the set switched off. */
export interface FuzzDraw {
  readonly beyondObserved: boolean;
  readonly integers: IntegerWidth;
  /** The edge classes not drawn (as {@link offClasses} gives them). */
  readonly off: ReadonlySet<string>;
}

const NAMES = new Set(EDGE_CLASSES.map((c) => c.name));

/**
 * The names of `list`, each an edge class.
 * @throws MockvideoError (`MV_USAGE`) naming the first that is none and listing the classes.
 */
export function classNames(list: readonly string[]): string[] {
  const names = list.map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.find((name) => !NAMES.has(name));
  if (unknown !== undefined)
    throw new MockvideoError('MV_USAGE', `Unknown edge class "${unknown}": the classes are ${[...NAMES].join(', ')}.`);
  return names;
}

/**
 * The edge classes switched off, in `EDGE_CLASSES` order, of those a run can draw (the
 * beyond-observed ones only with `beyondObserved`): the classes not in `classes` (when given) and
 * those in `exclude`. `ad_config` data is always `{}` or has fields, so with both of its classes off
 * `ad-config-empty` stays on (its `{}` is the ordinary answer).
 * @throws MockvideoError (`MV_USAGE`) naming an unknown class.
 */
export function offClasses(options: Pick<FuzzOptions, 'beyondObserved' | 'classes' | 'exclude'>): string[] {
  const only = options.classes && new Set(classNames(options.classes));
  const exclude = new Set(classNames(options.exclude ?? []));
  const off = EDGE_CLASSES.filter(
    (c) => (options.beyondObserved || !c.beyondObserved) && ((only && !only.has(c.name)) || exclude.has(c.name)),
  ).map((c) => c.name);
  return off.includes('ad-config-fields') ? off.filter((name) => name !== 'ad-config-empty') : off;
}

/** The draw of `options` (a draw is its own). @throws MockvideoError (`MV_USAGE`) naming an unknown class or a width that is none. */
export function drawOf(options: FuzzOptions | FuzzDraw = {}): FuzzDraw {
  if ('off' in options) return options;
  const integers = options.integers ?? 32;
  if (!INTEGER_WIDTHS.includes(integers))
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot draw integers of ${String(integers)} bits: the widths are ${INTEGER_WIDTHS.join(', ')}.`,
    );
  return { beyondObserved: options.beyondObserved ?? false, integers, off: new Set(offClasses(options)) };
}

/** Whether a draw draws the edge class `name`. */
export const isOn = (draw: FuzzDraw, name: string): boolean => !draw.off.has(name);
