import { z } from 'zod';
import { integerSchema } from './integer.js';
import { NUMBER_SOURCE, NUMBER_TEXT } from './number-text.js';
import { UPGRADE_URI } from './operation-table.js';

/** 32 lowercase hexadecimal characters (plugin `md5`, `params.signature`). @see docs/contract.md#plugin-entry. */
export const LOWER_HEX_32 = /^[0-9a-f]{32}$/;

/** The pattern of the market-specific key `ext_<market>_external_url` in `market_sign`. */
export const EXTERNAL_URL_KEY = /^ext_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_external_url$/;

/** `market_sign.nonce`: `<number>:<number>`, each signed (`-4811:28657834`). @see docs/contract.md#plugin-entry. */
export const MARKET_NONCE = new RegExp(`^${NUMBER_SOURCE}:${NUMBER_SOURCE}$`);

/** `true` or `false` written as text, as plugin `params` flags are. */
export type BooleanText = 'true' | 'false';

const booleanText = z.enum(['true', 'false']);

/**
 * `params` of a plugin entry: all strings, and which appear depends on the plugin; the type
 * {@link pluginParamsSchema} infers (the build checks that they are the same).
 *
 * @see docs/contract.md#plugin-entry (seed: "Plugin entry", `params`).
 */
export interface PluginParams {
  /** Package file name. */
  apk_name?: string;
  /** Name of the entry class. */
  class_name?: string;
  /** Package identifier. */
  package_name?: string;
  /** Kind of plugin; seen: `apk`. */
  plugin_type?: string;
  /** `true` or `false` as text. */
  need_install?: BooleanText;
  /** `true` or `false` as text. */
  need_unzip?: BooleanText;
  /** `true` or `false` as text. */
  silence_install?: BooleanText;
  /** `true` or `false` as text. */
  always_launch_app?: BooleanText;
  /** `true` or `false` as text. */
  cancelable_download?: BooleanText;
  /** `true` or `false` as text. */
  show_start_dialog?: BooleanText;
  /** Name shown to the user. */
  display_name?: string;
  /** Deep link to a store details page (seen only for type `app_apk`). */
  vendor_market_detail?: string;
  /** 32 lowercase hexadecimal characters. */
  signature?: string;
  /** A number as text, e.g. `"120"`. */
  version_code?: string;
}

/** The schema of {@link PluginParams} (its fields' docstrings say what each holds). @see docs/contract.md#plugin-entry (`params`). */
export const pluginParamsSchema = z.strictObject({
  apk_name: z.string().optional(),
  class_name: z.string().optional(),
  package_name: z.string().optional(),
  plugin_type: z.string().optional(),
  need_install: booleanText.optional(),
  need_unzip: booleanText.optional(),
  silence_install: booleanText.optional(),
  always_launch_app: booleanText.optional(),
  cancelable_download: booleanText.optional(),
  show_start_dialog: booleanText.optional(),
  display_name: z.string().optional(),
  vendor_market_detail: z.string().optional(),
  signature: z.string().regex(LOWER_HEX_32, 'signature must be 32 lowercase hexadecimal characters').optional(),
  version_code: z.string().regex(NUMBER_TEXT, 'version_code must be a number as text').optional(),
});

/**
 * `market_sign` of a plugin entry: all strings; exactly the keys below plus at least one
 * `ext_<market>_external_url`. The type {@link marketSignSchema} infers (the build checks that they
 * are the same).
 *
 * @see docs/contract.md#plugin-entry (seed: "Plugin entry", `market_sign`).
 */
export interface MarketSign {
  /** A string; its meaning is not shown in the seed. */
  appClientId: string;
  /** A string; its meaning is not shown in the seed. */
  appId: string;
  /** A string; its meaning is not shown in the seed. */
  appSignature: string;
  /** A string; its meaning is not shown in the seed. */
  ext_marketType: string;
  /** `<number>:<number>`, each signed, e.g. `-4811:28657834`. */
  nonce: string;
  /** A string; its meaning is not shown in the seed. */
  ref: string;
  /**
   * `ext_<market>_external_url` (at least one): a URL to the operation `meta/upgrade` with the query
   * parameters `uri` (`<scheme>://player-plugin/<plugin_id>/<version>`, naming this entry) and
   * `_region` (two upper-case letters); may start with `{origin}` in scenario data.
   */
  [key: string]: string;
}

/**
 * The schema of {@link MarketSign}: exactly its keys, with at least one `ext_<market>_external_url`
 * (checked by {@link upgradeUrlProblem}). @see docs/contract.md#plugin-entry (`market_sign`).
 */
export const marketSignSchema = z
  .object({
    appClientId: z.string(),
    appId: z.string(),
    appSignature: z.string(),
    ext_marketType: z.string(),
    nonce: z.string().regex(MARKET_NONCE, 'nonce must have the form <number>:<number>'),
    ref: z.string(),
  })
  .catchall(z.string())
  .superRefine((sign, ctx) => {
    const known = new Set(['appClientId', 'appId', 'appSignature', 'ext_marketType', 'nonce', 'ref']);
    const extra = Object.keys(sign).filter((key) => !known.has(key));
    for (const key of extra) {
      const message = EXTERNAL_URL_KEY.test(key)
        ? upgradeUrlProblem(sign[key]!)
        : `unknown market_sign field "${key}"; allowed: ${[...known].join(', ')}, ext_<market>_external_url`;
      if (message) ctx.addIssue({ code: 'custom', path: [key], message });
    }
    if (!extra.some((key) => EXTERNAL_URL_KEY.test(key))) {
      ctx.addIssue({ code: 'custom', path: [], message: 'market_sign must have an ext_<market>_external_url field' });
    }
  });

/**
 * Why an `ext_<market>_external_url` value is not a `meta/upgrade` URL with `uri` and `_region` (whose
 * `uri` names `entry`'s `id` and `version`, when given), or `undefined`. A value may start with
 * `{origin}` (scenario data: the server writes the client's origin there), read as `http://origin.invalid`.
 */
export function upgradeUrlProblem(value: string, entry?: Pick<PluginEntry, 'id' | 'version'>): string | undefined {
  let url: URL;
  try {
    url = new URL(value.replace(/^\{origin\}/, 'http://origin.invalid'));
  } catch {
    return 'ext_<market>_external_url must be an absolute URL';
  }
  if (!url.pathname.endsWith('/meta/upgrade'))
    return 'ext_<market>_external_url must point at the operation meta/upgrade';
  const uri = UPGRADE_URI.exec(url.searchParams.get('uri') ?? '');
  if (!uri)
    return 'ext_<market>_external_url needs a query parameter uri of the form <scheme>://player-plugin/<plugin_id>/<version>';
  if (!/^[A-Z]{2}$/.test(url.searchParams.get('_region') ?? ''))
    return 'ext_<market>_external_url needs a query parameter _region of two upper-case letters';
  if (entry && (uri[2] !== entry.id || Number(uri[3]) !== entry.version))
    return `uri must name this plugin and version (player-plugin/${entry.id}/${entry.version}), found player-plugin/${uri[2]}/${uri[3]}`;
  return undefined;
}

/**
 * A plugin entry: an element of the `data` array of `meta/plugin`; the type
 * {@link pluginEntrySchema} infers (the build checks that they are the same).
 *
 * @see docs/contract.md#plugin-entry (seed: "Plugin entry").
 */
export interface PluginEntry {
  /** Plugin identifier, not empty: the `id` of a content provider. */
  id: string;
  /** Name shown to the user. */
  name: string;
  /** Kind of entry; seen: `player_plugin`, `app_apk`. */
  type: string;
  /** Version number (an integer); `ext_<market>_external_url` names it in its `uri`. */
  version: number;
  /** Version label shown to the user, e.g. `"2.3.1"`. */
  version_name: string;
  /** When the entry changed: Unix time in **seconds** (an integer), not milliseconds. */
  updated_at: number;
  /** Download URL of the package; its file name is `md5` plus an extension (`<md5>.apk`). */
  url: string;
  /** Checksum of the package: 32 lowercase hexadecimal characters. */
  md5: string;
  /** Deep link to the download page of the device vendor's app store. */
  vendor_market: string;
  /** Store signing data, all strings (`appClientId`, `appId`, `appSignature`, `ext_marketType`, `ext_<market>_external_url`, `nonce` as `<number>:<number>`, `ref`). */
  market_sign: MarketSign;
  /** Install parameters, all strings; which ones appear depends on the plugin (flags are `true`/`false` as text). */
  params: PluginParams;
}

/**
 * The schema of a {@link PluginEntry}, with the rules across its fields: the file name in `url` is `md5`
 * plus an extension; every `ext_<market>_external_url` names this `id` and `version` in its `uri`.
 * @see docs/contract.md#plugin-entry.
 */
export const pluginEntrySchema = z
  .strictObject({
    id: z.string().min(1),
    name: z.string(),
    type: z.string(),
    version: integerSchema(),
    version_name: z.string(),
    updated_at: integerSchema(),
    url: z.string(),
    md5: z.string().regex(LOWER_HEX_32, 'md5 must be 32 lowercase hexadecimal characters'),
    vendor_market: z.string(),
    market_sign: marketSignSchema,
    params: pluginParamsSchema,
  })
  .superRefine((entry, ctx) => {
    const fileName = entry.url.split(/[?#]/)[0]!.split('/').pop() ?? '';
    if (!new RegExp(`^${entry.md5}\\.[A-Za-z0-9]+$`).test(fileName)) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `the file name in url must equal md5 plus an extension ("${entry.md5}.<ext>"), found "${fileName}"`,
      });
    }
    for (const [key, value] of Object.entries(entry.market_sign)) {
      // The URL's own problems are the market_sign schema's to report.
      if (!EXTERNAL_URL_KEY.test(key) || upgradeUrlProblem(value)) continue;
      const problem = upgradeUrlProblem(value, entry);
      if (problem) ctx.addIssue({ code: 'custom', path: ['market_sign', key], message: problem });
    }
  });

/** The `data` of `meta/plugin`: an array of plugin entries. @see docs/contract.md#operations (operation 4). */
export const pluginEntriesSchema = z.array(pluginEntrySchema);
