/**
 * The named edge classes of generated answers, and the classifier that says which classes an answer
 * falls in, read from the answer itself (its value and its JSON text), never from how it was drawn.
 * Any runtime.
 * @module
 */
import { deepLinkRawQuery } from '../contract/deep-link.js';
import { OPERATION_NAMES, type OperationName } from '../contract/operation-table.js';

/** Lists of at least this many items fall in the class `items-many`. */
export const MANY_ITEMS = 20;

/** The most items a drawn list has (class `items-many` draws {@link MANY_ITEMS} to this many, uniformly). */
export const MAX_ITEMS = 200;

/** Strings longer than this many UTF-16 code units count as long (class `title-long`). */
export const LONG_TEXT = 256;

/** One named edge class. */
export interface EdgeClass {
  name: string;
  /** What an answer of the class has. */
  describe: string;
  /** The operations whose answers can fall in it. */
  operations: readonly OperationName[];
  /** Reached only with `beyondObserved` (it breaks what the seed only observed). */
  beyondObserved?: true;
}

const LISTS: readonly OperationName[] = ['meta/cp', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'];
const ITEMS: readonly OperationName[] = ['localplay/diversion', 'localplay/recomm'];
const INTS: readonly OperationName[] = ['meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'];

/** A class of `operations`; `beyond`: reached only with `beyondObserved`. */
const edge = (name: string, operations: readonly OperationName[], describe: string, beyond = false): EdgeClass =>
  beyond ? { name, describe, operations, beyondObserved: true } : { name, describe, operations };

/** Every named edge class, in the order `GET /__mockvideo/fuzz` reports them. */
export const EDGE_CLASSES: readonly EdgeClass[] = [
  edge('items-empty', LISTS, 'a list with no element'),
  edge('items-one', LISTS, 'a list with one element'),
  edge('items-many', LISTS, `a list of ${MANY_ITEMS} to ${MAX_ITEMS} elements, its length uniform over that range`),
  edge('title-long', LISTS, `a title or name over ${LONG_TEXT} characters`),
  edge('title-mixed-script', LISTS, 'a title with right-to-left letters and combining marks'),
  edge('string-empty-optional', LISTS, 'an optional string (logo, icon, mode, language, version_name) empty'),
  edge('order-repeated', ITEMS, 'two items of one list with the same order'),
  edge('integer-extreme', INTS, integerExtreme(32)),
  edge(
    'time-extreme',
    ['meta/plugin'],
    'an updated_at (Unix seconds, a 64-bit Long) at the bounds of a 64-bit signed integer, at the 32-bit bound (the year 2038) or negative',
  ),
  edge('duration-zero', ITEMS, 'an item with duration 0'),
  edge('ad-config-empty', ['ad_config'], 'ad_config data {}'),
  edge('ad-config-fields', ['ad_config'], 'ad_config data with fields'),
  edge('apk-cp-both', ['meta/cp'], 'a content provider with both apk_url and cp_link', true),
  edge('apk-cp-neither', ['meta/cp'], 'a content provider with neither apk_url nor cp_link', true),
  edge('deep-link-double-encoded', ITEMS, 'a target whose nested deep link nests another (percent-encoded twice)'),
  edge(
    'deep-link-unusual-encoding',
    ITEMS,
    'a nested deep link with lower-case escapes or escaped unreserved characters',
  ),
  edge('json-unicode-escapes', OPERATION_NAMES, 'a JSON text with \\u escapes other than \\u0026'),
  edge('market-nonce-negative', ['meta/plugin'], 'a market_sign.nonce with a negative half'),
  edge('plugin-params-empty', ['meta/plugin'], 'a plugin entry with params {}'),
  edge(
    'number-text-unusual',
    ['meta/setting', 'meta/plugin'],
    'a number as text with a sign, fraction or exponent (codec_level, version_code)',
  ),
  edge('diversion-arrays-differ', ['localplay/diversion'], 'a diversion set whose three arrays differ', true),
  edge('diversion-order-unsorted', ['localplay/diversion'], 'a diversion array not in descending order', true),
  edge('item-unobserved-values', ITEMS, 'an item with type, action, placement or ref other than observed', true),
  edge('plugin-type-unobserved', ['meta/plugin'], 'a plugin type other than player_plugin and app_apk', true),
  edge(
    'market-detail-unobserved',
    ['meta/plugin'],
    'a params.vendor_market_detail on a plugin whose type is not app_apk',
    true,
  ),
];

/** The description of `integer-extreme` for a client whose `int` has `bits` bits (`--fuzz-integers`). */
function integerExtreme(bits: 32 | 53 | 64): string {
  const at = 'an integer field at the bounds of a 32-bit signed integer (2147483647, -2147483648 and their neighbours)';
  if (bits === 32) return `${at} or -1`;
  const upTo =
    bits === 53
      ? '±(2^53 - 1) (9007199254740991)'
      : 'the bounds of a 64-bit signed integer (9223372036854775807, -9223372036854775808)';
  return `${at} or beyond, up to ${upTo}, or -1`;
}

/** The edge classes as a run of `integers`-bit `int`s draws them: `integer-extreme` names that range. */
export function edgeClassesFor(integers: 32 | 53 | 64): EdgeClass[] {
  return EDGE_CLASSES.map((c) => (c.name === 'integer-extreme' ? { ...c, describe: integerExtreme(integers) } : c));
}

type Json = Record<string, unknown>;
const RTL = /[\u0590-\u05FF\u0600-\u06FF]/;
const COMBINING = /[\u0300-\u036F\u0591-\u05C7\u064B-\u065F\u20D0-\u20FF]/;
/** At a 32-bit bound or its neighbour, beyond, or -1 (class `integer-extreme`). */
const extreme = (n: unknown) => typeof n === 'number' && (Math.abs(n) >= 2 ** 31 - 2 || n === -1);
/** A Unix time at the 32-bit bound or beyond, or negative (class `time-extreme`). */
const timeExtreme = (n: unknown) => typeof n === 'number' && (n < 0 || n >= 2 ** 31 - 1);
/** A lower-case escape, or an escaped character `encodeURIComponent` leaves as it is. */
const UNUSUAL_ESCAPE = /%(?:[0-9a-f][a-f]|[a-f][0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE]|3[0-9]|2[17-9ADE])/;
const UNUSUAL_NUMBER = /[-+.eE]/;
/** The observed `position` (`localplayrecomm||||<index>`), its `|` literal or escaped. */
const OBSERVED_POSITION = /^localplayrecomm(?:\||%7[Cc])/;

/**
 * Whether two JSON values are the same (objects with the same keys in the same order): what
 * comparing their `JSON.stringify` texts says, stopping at the first difference (with it and
 * `deepLinkRawQuery`, a generated diversion answer took 136 instead of 165 µs, see there).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key, i) => key === otherKeys[i] && sameJson((a as Json)[key], (b as Json)[key]));
}

function listClasses(list: readonly unknown[], into: Set<string>): void {
  if (list.length === 0) into.add('items-empty');
  else if (list.length === 1) into.add('items-one');
  else if (list.length >= MANY_ITEMS) into.add('items-many');
}

function titleClasses(text: string, into: Set<string>): void {
  if (text.length > LONG_TEXT) into.add('title-long');
  if (RTL.test(text) && COMBINING.test(text)) into.add('title-mixed-script');
}

function itemClasses(items: readonly Json[], into: Set<string>): void {
  listClasses(items, into);
  const orders = new Set<unknown>();
  for (const item of items) {
    titleClasses(item.title as string, into);
    if (orders.has(item.order)) into.add('order-repeated');
    orders.add(item.order);
    if (item.duration === 0) into.add('duration-zero');
    if (extreme(item.duration) || extreme(item.order)) into.add('integer-extreme');
    const query = new Map(deepLinkRawQuery(item.target as string));
    if (
      item.top_left_logo === '' ||
      item.top_right_logo === '' ||
      query.get('mode') === '' ||
      query.get('language') === ''
    )
      into.add('string-empty-optional');
    for (const raw of [query.get('default') ?? '', query.get('back_scheme') ?? '']) {
      if (/%253A/i.test(raw)) into.add('deep-link-double-encoded');
      if (UNUSUAL_ESCAPE.test(raw)) into.add('deep-link-unusual-encoding');
    }
    if (
      item.type !== 'video' ||
      query.get('action') !== 'playVideo' ||
      query.get('ref') !== 'LOCALRECOMM' ||
      !OBSERVED_POSITION.test(query.get('position') ?? '')
    )
      into.add('item-unobserved-values');
  }
}

/** The named edge classes (see {@link EDGE_CLASSES}) an answer of `operation` falls in: its `data` and its JSON text. */
export function classesOf(operation: OperationName, data: unknown, text: string): string[] {
  const into = new Set<string>();
  if (/\\u(?!0026)/.test(text)) into.add('json-unicode-escapes');
  switch (operation) {
    case 'ad_config':
      into.add(Object.keys(data as Json).length === 0 ? 'ad-config-empty' : 'ad-config-fields');
      break;
    case 'meta/cp':
      listClasses(data as Json[], into);
      for (const cp of data as Json[]) {
        titleClasses(cp.name as string, into);
        if (cp.apk_url !== '' && cp.cp_link !== '') into.add('apk-cp-both');
        if (cp.apk_url === '' && cp.cp_link === '') into.add('apk-cp-neither');
        if (cp.app_icon === '' || cp.top_right_logo === '') into.add('string-empty-optional');
      }
      break;
    case 'meta/setting':
      if (Object.values(data as Json).some(extreme)) into.add('integer-extreme');
      if (UNUSUAL_NUMBER.test((data as Json).codec_level as string)) into.add('number-text-unusual');
      break;
    case 'meta/plugin':
      listClasses(data as Json[], into);
      for (const entry of data as Json[]) {
        titleClasses(entry.name as string, into);
        if (extreme(entry.version)) into.add('integer-extreme');
        if (timeExtreme(entry.updated_at)) into.add('time-extreme');
        if (entry.version_name === '') into.add('string-empty-optional');
        if (/(^|:)-/.test((entry.market_sign as Json).nonce as string)) into.add('market-nonce-negative');
        const params = entry.params as Json;
        if (Object.keys(params).length === 0) into.add('plugin-params-empty');
        if (typeof params.version_code === 'string' && UNUSUAL_NUMBER.test(params.version_code))
          into.add('number-text-unusual');
        if (entry.type !== 'player_plugin' && entry.type !== 'app_apk') into.add('plugin-type-unobserved');
        if (entry.type !== 'app_apk' && params.vendor_market_detail !== undefined) into.add('market-detail-unobserved');
      }
      break;
    case 'localplay/diversion': {
      const lists = new Set(Object.values(data as Record<string, Json[]>));
      for (const items of lists) {
        itemClasses(items, into);
        if (items.some((item, i) => i > 0 && (item.order as number) > (items[i - 1]!.order as number)))
          into.add('diversion-order-unsorted');
      }
      const [first, ...others] = lists;
      if (others.some((list) => !sameJson(list, first))) into.add('diversion-arrays-differ');
      break;
    }
    case 'localplay/recomm':
      itemClasses(data as Json[], into);
      break;
  }
  return EDGE_CLASSES.filter((c) => into.has(c.name)).map((c) => c.name);
}
