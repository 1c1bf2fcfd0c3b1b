/**
 * Arbitraries of the resources other than recommended video items: ad configuration, content
 * provider, runtime settings, plugin entry. Field lists come from the contract's schemas and tables
 * (`settingsSchema`, `INTEGER_SETTINGS`, `pluginParamsSchema`), patterns from its regular
 * expressions, so the generator and the validator cannot drift apart. Any runtime.
 * @module
 */
import fc from 'fast-check';
import type { AdConfig } from '../contract/ad-config.js';
import type { ContentProvider } from '../contract/content-provider.js';
import { API_PREFIX } from '../contract/operation-table.js';
import { EXTERNAL_URL_KEY, pluginParamsSchema, type PluginEntry } from '../contract/plugin.js';
import { INTEGER_SETTINGS, type Settings } from '../contract/settings.js';
import { deepLink } from './deep-links.js';
import type { FuzzOptions } from './options.js';
import { FUZZ_ORIGIN, EXTREME_INTEGERS, integer, numberText, optionalImageUrl, shortId, title } from './text.js';

/** The `data` of `ad_config`: mostly `{}` (class `ad-config-empty`), else an object of JSON values (fields not shown in the seed). */
export const adConfig = (): fc.Arbitrary<AdConfig> =>
  fc.oneof(
    { arbitrary: fc.constant({}), weight: 3 },
    {
      arbitrary: fc.dictionary(shortId, fc.jsonValue({ maxDepth: 2 }), {
        minKeys: 1,
        maxKeys: 5,
      }) as fc.Arbitrary<AdConfig>,
      weight: 1,
    },
  );

const apkUrl = shortId.map((name) => `${FUZZ_ORIGIN}/apk/${name}.apk`);

/**
 * A content provider. Observed (the default): exactly one of `apk_url` and `cp_link` is non-empty.
 * Beyond observed: both or neither too (classes `apk-cp-both`, `apk-cp-neither`).
 */
export function contentProvider(options: FuzzOptions = {}): fc.Arbitrary<ContentProvider> {
  const links = options.beyondObserved ? fc.constantFrom('apk', 'cp', 'both', 'neither') : fc.constantFrom('apk', 'cp');
  return fc
    .record({
      id: shortId,
      name: title,
      links,
      apk: apkUrl,
      cp: deepLink,
      app_icon: optionalImageUrl,
      top_right_logo: optionalImageUrl,
    })
    .map(({ id, name, links: which, apk, cp, app_icon, top_right_logo }) => ({
      id,
      name,
      apk_url: which === 'apk' || which === 'both' ? apk : '',
      app_icon,
      top_right_logo,
      cp_link: which === 'cp' || which === 'both' ? cp : '',
    }));
}

/** The `data` of `meta/setting`: every field of the contract's `settingsSchema`, integers sometimes 0 or extreme. */
export const settings = (): fc.Arbitrary<Settings> =>
  fc.record({
    codec_level: numberText,
    disable_codec_name: fc.constantFrom('none', 'hevc', 'h264,hevc', ''),
    ...(Object.fromEntries(INTEGER_SETTINGS.map((name) => [name, integer(fc.nat(10))])) as Record<
      (typeof INTEGER_SETTINGS)[number],
      fc.Arbitrary<number>
    >),
  });

/** 32 lowercase hex characters (the contract's `LOWER_HEX_32`), from four 32-bit integers: cheaper to draw than `fc.stringMatching`. */
const WORD = fc.integer({ min: 0, max: 0xffffffff });
const hex32 = fc
  .tuple(WORD, WORD, WORD, WORD)
  .map((words) => words.map((w) => w.toString(16).padStart(8, '0')).join(''));

type ParamName = keyof typeof pluginParamsSchema.shape;
const PARAM_NAMES = Object.keys(pluginParamsSchema.shape) as ParamName[];
const FLAG_PARAMS = PARAM_NAMES.filter(
  (name) =>
    name.startsWith('need_') ||
    ['silence_install', 'always_launch_app', 'cancelable_download', 'show_start_dialog'].includes(name),
);

/** The arbitrary of one `params` field, by its contract rule (flags `true`/`false`, `signature` 32 hex, `version_code` a number as text). */
function paramValue(name: ParamName): fc.Arbitrary<string> {
  if (FLAG_PARAMS.includes(name)) return fc.constantFrom('true', 'false');
  if (name === 'signature') return hex32;
  if (name === 'version_code') return numberText;
  if (name === 'plugin_type') return fc.constant('apk');
  if (name === 'vendor_market_detail') return deepLink;
  return fc.oneof(shortId, fc.constant(''));
}

/** `params` of a plugin entry: any subset of the contract's fields, `{}` included (class `plugin-params-empty`). */
const pluginParams: fc.Arbitrary<PluginEntry['params']> = fc.oneof(
  {
    arbitrary: fc.record(
      Object.fromEntries(PARAM_NAMES.map((name) => [name, paramValue(name)])) as Record<
        ParamName,
        fc.Arbitrary<string>
      >,
      { requiredKeys: [] },
    ) as fc.Arbitrary<PluginEntry['params']>,
    weight: 4,
  },
  { arbitrary: fc.constant({}) as fc.Arbitrary<PluginEntry['params']>, weight: 1 },
);

/** `market_sign.nonce`: `<number>:<number>`, each half signed (class `market-nonce-negative` when a half is below 0). */
const nonce = fc
  .tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }))
  .map(([a, b]) => `${a}:${b}`);

/**
 * A plugin entry. `md5` is 32 lowercase hex and the file name of `url` is `md5` plus an extension;
 * `market_sign` has one or two `ext_<market>_external_url` keys pointing at `meta/upgrade` with
 * `uri=<scheme>://player-plugin/<id>/<version>` and `_region`. `type` is one of the two observed
 * values, or any text beyond observed.
 */
export function pluginEntry(options: FuzzOptions = {}): fc.Arbitrary<PluginEntry> {
  const type = options.beyondObserved
    ? fc.oneof(fc.constantFrom('player_plugin', 'app_apk'), shortId)
    : fc.constantFrom('player_plugin', 'app_apk');
  return fc
    .record({
      id: shortId,
      name: title,
      type,
      version: integer(fc.nat(500)),
      version_name: fc.oneof(fc.stringMatching(/^\d{1,2}\.\d{1,2}\.\d{1,3}$/), fc.constant('')),
      updated_at: fc.oneof(
        { arbitrary: fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }), weight: 4 },
        fc.constantFrom(0, ...EXTREME_INTEGERS),
      ),
      md5: hex32,
      extension: fc.constantFrom('zip', 'apk', 'jar'),
      urlQuery: fc.constantFrom('', '?v=1', '#top'),
      vendor_market: deepLink,
      markets: fc.oneof(
        { arbitrary: fc.constant(['ext_default_external_url']) as fc.Arbitrary<string[]>, weight: 3 },
        fc.uniqueArray(fc.stringMatching(EXTERNAL_URL_KEY), { minLength: 1, maxLength: 2 }),
      ),
      uriScheme: fc.constantFrom('videoplayer', 'market', 'mv'),
      region: fc.stringMatching(/^[A-Z]{2}$/),
      sign: fc.record({
        appClientId: shortId,
        appId: shortId,
        appSignature: hex32,
        ext_marketType: fc.constantFrom('1', '2', ''),
        nonce,
        ref: fc.constantFrom('', 'player', 'market'),
      }),
      params: pluginParams,
    })
    .map((d) => {
      const uri = encodeURIComponent(`${d.uriScheme}://player-plugin/${d.id}/${d.version}`);
      const upgrade = `${FUZZ_ORIGIN}${API_PREFIX}/meta/upgrade?uri=${uri}&_region=${d.region}`;
      const { appClientId, appId, appSignature, ext_marketType, nonce: n, ref } = d.sign;
      return {
        id: d.id,
        name: d.name,
        type: d.type,
        version: d.version,
        version_name: d.version_name,
        updated_at: d.updated_at,
        url: `${FUZZ_ORIGIN}/plugins/${d.md5}.${d.extension}${d.urlQuery}`,
        md5: d.md5,
        vendor_market: d.vendor_market,
        market_sign: {
          appClientId,
          appId,
          appSignature,
          ext_marketType,
          ...Object.fromEntries(d.markets.map((key) => [key, upgrade])),
          nonce: n,
          ref,
        },
        params: d.params,
      };
    });
}
