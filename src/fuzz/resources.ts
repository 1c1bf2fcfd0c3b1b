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
import { pluginParamsSchema, type PluginEntry } from '../contract/plugin.js';
import { INTEGER_SETTINGS, type Settings } from '../contract/settings.js';
import { intField, timeField } from './integers.js';
import { drawOf, isOn, type FuzzDraw, type FuzzOptions } from './options.js';
import { FUZZ_ORIGIN, appLink, booleanText, numberText, optional, optionalImageUrl, shortId, title } from './values.js';

/** JSON values of `ad_config` fields: any primitive, or a small nested array or object. */
const adValue = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 0 }), weight: 3 },
  fc.constantFrom([], {}, [0, 'a', null], { nested: { deep: true } }),
);

/** The `data` of `ad_config`: mostly `{}` (class `ad-config-empty`), else an object of JSON values (fields not shown in the seed). */
export function adConfig(options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<AdConfig> {
  const draw = drawOf(options);
  const empty = { arbitrary: fc.constant({}), weight: 3 };
  const fields = { arbitrary: fc.dictionary(shortId, adValue, { minKeys: 1, maxKeys: 5 }), weight: 1 };
  if (!isOn(draw, 'ad-config-fields')) return empty.arbitrary as fc.Arbitrary<AdConfig>;
  return (isOn(draw, 'ad-config-empty') ? fc.oneof(empty, fields) : fields.arbitrary) as fc.Arbitrary<AdConfig>;
}

/**
 * A content provider. Observed (the default): exactly one of `apk_url` and `cp_link` is non-empty.
 * Beyond observed: both or neither too (classes `apk-cp-both`, `apk-cp-neither`).
 */
export function contentProvider(options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<ContentProvider> {
  const draw = drawOf(options);
  const beyond = (name: string) => draw.beyondObserved && isOn(draw, `apk-cp-${name}`);
  const links = fc.constantFrom('apk', 'cp', ...['both', 'neither'].filter(beyond));
  const image = optionalImageUrl(draw);
  return fc
    .record({ id: shortId, name: title(draw), links, app_icon: image, top_right_logo: image })
    .map(({ id, name, links: which, app_icon, top_right_logo }) => ({
      id,
      name,
      apk_url: which === 'apk' || which === 'both' ? `${FUZZ_ORIGIN}/apk/${id}.apk` : '',
      app_icon,
      top_right_logo,
      cp_link: which === 'cp' || which === 'both' ? `${appLink(id)}?from=cp` : '',
    }));
}

/** The `data` of `meta/setting`: every field of the contract's `settingsSchema`, integers sometimes 0 or extreme. */
export function settings(options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<Settings> {
  const draw = drawOf(options);
  const integer = intField(fc.nat(10), draw);
  return fc.record({
    codec_level: numberText(draw),
    disable_codec_name: fc.constantFrom('none', 'hevc', 'h264,hevc', ''),
    ...(Object.fromEntries(INTEGER_SETTINGS.map((name) => [name, integer])) as Record<
      (typeof INTEGER_SETTINGS)[number],
      fc.Arbitrary<number>
    >),
  });
}

/** 32 lowercase hex characters (the contract's `LOWER_HEX_32`): a 128-bit integer, cheaper to draw than `fc.stringMatching`. */
const hex32 = fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }).map((n) => n.toString(16).padStart(32, '0'));

/** Signatures (32 lowercase hex) at the edges, cheaper than a {@link hex32} per field. */
const signature = fc.constantFrom(
  'd41d8cd98f00b204e9800998ecf8427e',
  '00000000000000000000000000000000',
  'ffffffffffffffffffffffffffffffff',
);

type Params = PluginEntry['params'];
type ParamName = keyof Params;

/** The arbitrary of one `params` field, by its contract rule (flags `true`/`false`, `signature` 32 hex, `version_code` a number as text). */
function paramValue(name: ParamName, draw: FuzzDraw): fc.Arbitrary<string> {
  if (name === 'signature') return signature;
  if (name === 'version_code') return numberText(draw);
  if (name === 'plugin_type') return fc.constant('apk');
  if (name === 'vendor_market_detail') return fc.constant('market://details?id=com.example.plugin');
  if (pluginParamsSchema.shape[name].safeParse('x').success) return fc.constantFrom('', 'com.example.plugin');
  return booleanText;
}

/** `params` of a plugin entry: any subset of the contract's fields, `{}` included (class `plugin-params-empty`). */
function pluginParams(draw: FuzzDraw): fc.Arbitrary<Params> {
  const fields = fc.record(
    Object.fromEntries(
      Object.keys(pluginParamsSchema.shape).map((name) => [name, paramValue(name as ParamName, draw)]),
    ),
    { requiredKeys: [] },
  ) as fc.Arbitrary<Params>;
  if (!isOn(draw, 'plugin-params-empty')) return fields;
  return fc.oneof({ arbitrary: fields, weight: 4 }, { arbitrary: fc.constant({}), weight: 1 });
}

/** `market_sign.nonce`: `<number>:<number>`, each half signed (class `market-nonce-negative` when a half is below 0). */
function nonce(draw: FuzzDraw): fc.Arbitrary<string> {
  const half = fc.integer({ min: isOn(draw, 'market-nonce-negative') ? -(2 ** 31) : 0, max: 2 ** 31 - 1 });
  return fc.tuple(half, half).map(([a, b]) => `${a}:${b}`);
}

/**
 * A plugin entry before its id: `type` one of the two observed values, or any text beyond observed
 * (class `plugin-type-unobserved`); `params.vendor_market_detail` only on an `app_apk` (the seed:
 * "observed only for type app_apk"), on any type beyond observed (`market-detail-unobserved`).
 */
export function pluginDraft(draw: FuzzDraw) {
  const observed = fc.constantFrom('player_plugin', 'app_apk');
  const detailAnywhere = draw.beyondObserved && isOn(draw, 'market-detail-unobserved');
  return fc
    .record({
      name: title(draw),
      type:
        draw.beyondObserved && isOn(draw, 'plugin-type-unobserved')
          ? fc.oneof(observed, fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/))
          : observed,
      version: intField(fc.nat(500), draw),
      version_name: optional(draw, ['1.0.0', '', '12.4.103', '0.0.1']),
      updated_at: timeField(fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }), draw),
      md5: hex32,
      file: fc.constantFrom('zip', 'apk', 'jar', 'zip?v=1', 'apk#top'),
      markets: fc.constantFrom(['default'], ['default'], ['google', 'huawei_cn'], ['x1']),
      upgrade: fc.constantFrom('videoplayer:IN', 'market:US', 'mv:BR', 'videoplayer:ZZ'),
      appSignature: signature,
      ext_marketType: fc.constantFrom('1', '2', ''),
      nonce: nonce(draw),
      ref: fc.constantFrom('', 'player', 'market'),
      params: pluginParams(draw),
    })
    .map((d) => {
      if (detailAnywhere || d.type === 'app_apk' || d.params.vendor_market_detail === undefined) return d;
      const { vendor_market_detail: _, ...params } = d.params;
      return { ...d, params };
    });
}

/** A drawn plugin entry before its id. */
export type PluginDraft = ReturnType<typeof pluginDraft> extends fc.Arbitrary<infer T> ? T : never;

/**
 * The plugin entry of a draft with the id `id`. `md5` is 32 lowercase hex and the file name of `url`
 * is `md5` plus an extension; `market_sign` has one or two `ext_<market>_external_url` keys pointing
 * at `meta/upgrade` with `uri=<scheme>://player-plugin/<id>/<version>` and `_region`.
 */
export function placePlugin(draft: PluginDraft, id: string): PluginEntry {
  const { md5, file, markets, upgrade, appSignature, ext_marketType, nonce, ref, params, ...d } = draft;
  const [scheme, region] = upgrade.split(':');
  const uri = encodeURIComponent(`${scheme}://player-plugin/${id}/${d.version}`);
  const link = `${FUZZ_ORIGIN}${API_PREFIX}/meta/upgrade?uri=${uri}&_region=${region}`;
  const externalUrls = Object.fromEntries(markets.map((market) => [`ext_${market}_external_url`, link]));
  return {
    id,
    ...d,
    url: `${FUZZ_ORIGIN}/plugins/${md5}.${file}`,
    md5,
    vendor_market: `${appLink(id)}?market=details`,
    market_sign: { appClientId: `${id}_client`, appId: id, appSignature, ext_marketType, ...externalUrls, nonce, ref },
    params,
  };
}

/** A plugin entry (the resource on its own: its id one of the generator's provider ids). See {@link pluginDraft}. */
export const pluginEntry = (options: FuzzOptions | FuzzDraw = {}): fc.Arbitrary<PluginEntry> =>
  fc.tuple(shortId, pluginDraft(drawOf(options))).map(([id, draft]) => placePlugin(draft, id));
