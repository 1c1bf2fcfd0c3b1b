// A typed decoder as an Android client's network layer has one (Gson or kotlinx.serialization into
// data classes): every integer field of the seed a 32-bit `Int`, the Unix-time fields a 64-bit
// `Long`, every field the seed calls a string a JSON string, no field null. It reads the JSON text
// with lossless-json, so a number is checked as written (9223372036854775807 is not 2^63).
import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';
import type { OperationName } from '../../src/contract/operation-table.js';

/** The type of one field, as a typed client declares it. */
type Field = 'Int' | 'Long' | 'String' | 'Any' | { list: Field } | { map: 'String' } | { object: Fields };
type Fields = Readonly<Record<string, Field | { optional: Field }>>;

const INT = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
const LONG = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

const SETTINGS: Fields = {
  codec_level: 'String',
  disable_codec_name: 'String',
  ...Object.fromEntries(
    [
      'language_switch',
      'recommend_exit_times',
      'recommend_exit_times_gallery',
      'recommend_exit_times_no_click',
      'recommend_exit_times_no_click_gallery',
      'recommend_page_control_show_times',
      'recommend_page_control_show_times_for_gallery',
      'recommend_page_max_show_times_without_click',
      'recommend_page_max_show_times_without_click_for_gallery',
      'recommend_show_times_interval',
      'recommend_suspend_times',
      'recommend_suspend_times_gallery',
      'recommend_suspend_times_no_click',
      'recommend_suspend_times_no_click_gallery',
    ].map((name) => [name, 'Int' as const]),
  ),
};
const PROVIDER: Fields = Object.fromEntries(
  ['id', 'name', 'apk_url', 'app_icon', 'top_right_logo', 'cp_link'].map((n) => [n, 'String' as const]),
);
const PLUGIN: Fields = {
  ...Object.fromEntries(
    ['id', 'name', 'type', 'version_name', 'url', 'md5', 'vendor_market'].map((n) => [n, 'String' as const]),
  ),
  version: 'Int',
  updated_at: 'Long',
  market_sign: { map: 'String' },
  params: { map: 'String' },
};
const VIDEO: Fields = {
  ...Object.fromEntries(
    ['id', 'title', 'image_url', 'type', 'target', 'top_left_logo', 'top_right_logo'].map((n) => [
      n,
      'String' as const,
    ]),
  ),
  duration: 'Int',
  order: 'Int',
  target_addition: { list: 'String' },
};
const DATA: Record<OperationName, Field> = {
  ad_config: 'Any',
  'meta/cp': { list: { object: PROVIDER } },
  'meta/setting': { object: SETTINGS },
  'meta/plugin': { list: { object: PLUGIN } },
  'localplay/diversion': {
    object: {
      end: { list: { object: VIDEO } },
      exit: { list: { object: VIDEO } },
      suspend: { list: { object: VIDEO } },
    },
  },
  'localplay/recomm': { list: { object: VIDEO } },
};

/** Thrown as a typed client's decoder throws: `Expected an int but was 2147483648 at $.data[4].version`. */
class DecodeError extends Error {}

function decode(value: unknown, type: Field, path: string): void {
  const fail = (what: string) => {
    throw new DecodeError(
      `Expected ${what} but was ${isLosslessNumber(value) ? value.value : JSON.stringify(value)} at ${path}`,
    );
  };
  if (type === 'Any') return;
  if (type === 'Int' || type === 'Long') {
    const range = type === 'Int' ? INT : LONG;
    if (!isLosslessNumber(value) || !/^-?\d+$/.test(value.value)) return fail(type === 'Int' ? 'an int' : 'a long');
    const n = BigInt((value as LosslessNumber).value);
    if (n < range.min || n > range.max) fail(type === 'Int' ? 'an int' : 'a long');
    return;
  }
  if (type === 'String') {
    if (typeof value !== 'string') fail('a string');
    return;
  }
  if ('list' in type) {
    if (!Array.isArray(value)) return fail('an array');
    value.forEach((element, i) => decode(element, type.list, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('an object');
  const object = value as Record<string, unknown>;
  if ('map' in type) {
    for (const [key, element] of Object.entries(object)) decode(element, type.map, `${path}.${key}`);
    return;
  }
  for (const [key, field] of Object.entries(type.object)) {
    const optional = typeof field === 'object' && 'optional' in field;
    if (!(key in object)) {
      if (!optional) throw new DecodeError(`Field ${path}.${key} is required but missing`);
      continue;
    }
    decode(object[key], optional ? field.optional : (field as Field), `${path}.${key}`);
  }
}

/**
 * Decodes the JSON text of an answer of `operation` as a typed client does: `null` when it decodes,
 * else the decoder's message (`Expected an int but was 2147483648 at $.data[4].version`).
 */
export function typedDecodeProblem(operation: OperationName, text: string): string | null {
  try {
    decode(parse(text), { object: { data: DATA[operation], msg: 'String', result: 'Int' } }, '$');
    return null;
  } catch (error) {
    if (error instanceof DecodeError) return error.message;
    throw error;
  }
}
