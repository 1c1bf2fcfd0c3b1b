import { z } from 'zod';
import { NUMBER_SOURCE, NUMBER_TEXT } from './number-text.js';
import { UPGRADE_URI } from './operation-table.js';

/** 32 lowercase hexadecimal characters (plugin `md5`, `params.signature`). @see docs/contract.md#plugin-entry. */
export const LOWER_HEX_32 = /^[0-9a-f]{32}$/;

/** The pattern of the market-specific key `ext_<market>_external_url` in `market_sign`. */
export const EXTERNAL_URL_KEY = /^ext_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_external_url$/;

export { UPGRADE_URI };

/** `market_sign.nonce`: `<number>:<number>`, each signed (`-4811:28657834`). @see docs/contract.md#plugin-entry. */
export const MARKET_NONCE = new RegExp(`^${NUMBER_SOURCE}:${NUMBER_SOURCE}$`);

const booleanText = z.enum(['true', 'false']);

/**
 * `params` of a plugin entry: all strings, which appear depends on the plugin. Flags are `true` or
 * `false` as text; `signature` is 32 lowercase hex; `version_code` is a number as text.
 *
 * @see docs/contract.md#plugin-entry (`params`).
 */
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
 * `market_sign` of a plugin entry: all strings. `nonce` has the form `<number>:<number>`; exactly
 * the keys below plus at least one `ext_<market>_external_url`, a URL to the operation
 * `meta/upgrade` with the query parameters `uri` and `_region`.
 *
 * @see docs/contract.md#plugin-entry (`market_sign`).
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
      if (!EXTERNAL_URL_KEY.test(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown market_sign field "${key}"; allowed: ${[...known].join(', ')}, ext_<market>_external_url` });
        continue;
      }
      const problem = upgradeUrlProblem(sign[key] as string);
      if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
    if (!extra.some((key) => EXTERNAL_URL_KEY.test(key))) {
      ctx.addIssue({ code: 'custom', path: [], message: 'market_sign must have an ext_<market>_external_url field' });
    }
  });

/**
 * URLs in scenario data may start with `{origin}`, which the server replaces with the origin the
 * client used. Checks read such a URL as if it started with `http://origin.invalid`.
 * @example resolveOriginPlaceholder('{origin}/api/g1/meta/upgrade') // 'http://origin.invalid/api/g1/meta/upgrade'
 */
export function resolveOriginPlaceholder(value: string): string {
  return value.startsWith('{origin}') ? `http://origin.invalid${value.slice('{origin}'.length)}` : value;
}

/**
 * Why an `ext_<market>_external_url` value is not a `meta/upgrade` URL with `uri` and `_region`, or
 * `undefined`. A value may start with `{origin}` (see {@link resolveOriginPlaceholder}).
 */
export function upgradeUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(resolveOriginPlaceholder(value));
  } catch {
    return 'ext_<market>_external_url must be an absolute URL';
  }
  if (!url.pathname.endsWith('/meta/upgrade')) return 'ext_<market>_external_url must point at the operation meta/upgrade';
  const uri = url.searchParams.get('uri');
  if (uri === null || !UPGRADE_URI.test(uri)) return 'ext_<market>_external_url needs a query parameter uri of the form <scheme>://player-plugin/<plugin_id>/<version>';
  if (!/^[A-Z]{2}$/.test(url.searchParams.get('_region') ?? '')) return 'ext_<market>_external_url needs a query parameter _region of two upper-case letters';
  return undefined;
}

/**
 * A plugin entry: an element of the `data` array of `meta/plugin`. `updated_at` is Unix time in
 * **seconds**; `md5` is 32 lowercase hex and the file name in `url` equals `md5` plus an extension;
 * every `ext_<market>_external_url` names this plugin's `id` and `version` in its `uri`.
 *
 * @see docs/contract.md#plugin-entry.
 */
export const pluginEntrySchema = z
  .strictObject({
    /** Plugin identifier: the `id` of a content provider. */
    id: z.string().min(1),
    /** Name shown to the user. */
    name: z.string(),
    /** Kind of entry; seen: `player_plugin`, `app_apk`. */
    type: z.string(),
    /** Version number (an integer). */
    version: z.number().int(),
    /** Version label shown to the user. */
    version_name: z.string(),
    /** When the entry changed: Unix time in **seconds**. */
    updated_at: z.number().int(),
    /** Download URL of the package; its file name is `md5` plus an extension. */
    url: z.string(),
    /** Checksum of the package: 32 lowercase hexadecimal characters. */
    md5: z.string().regex(LOWER_HEX_32, 'md5 must be 32 lowercase hexadecimal characters'),
    /** Deep link to the download page of the device vendor's app store. */
    vendor_market: z.string(),
    /** Store signing data, all strings (`appClientId`, `appId`, `appSignature`, `ext_marketType`, `ext_<market>_external_url`, `nonce` as `<number>:<number>`, `ref`). */
    market_sign: marketSignSchema,
    /** Install parameters, all strings; which ones depends on the plugin (flags are `true`/`false` as text). */
    params: pluginParamsSchema,
  })
  .superRefine((entry, ctx) => {
    const fileName = entry.url.split(/[?#]/)[0]!.split('/').pop() ?? '';
    if (!new RegExp(`^${entry.md5}\\.[A-Za-z0-9]+$`).test(fileName)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: `the file name in url must equal md5 plus an extension ("${entry.md5}.<ext>"), found "${fileName}"` });
    }
    for (const [key, value] of Object.entries(entry.market_sign)) {
      if (!EXTERNAL_URL_KEY.test(key) || upgradeUrlProblem(value)) continue;
      const uri = UPGRADE_URI.exec(new URL(resolveOriginPlaceholder(value)).searchParams.get('uri')!)!;
      if (uri[2] !== entry.id || Number(uri[3]) !== entry.version) {
        ctx.addIssue({ code: 'custom', path: ['market_sign', key], message: `uri must name this plugin and version (player-plugin/${entry.id}/${entry.version}), found player-plugin/${uri[2]}/${uri[3]}` });
      }
    }
  });

/** One plugin entry. @see docs/contract.md#plugin-entry. */
export type PluginEntry = z.infer<typeof pluginEntrySchema>;

/** The `data` of `meta/plugin`: an array of plugin entries. @see docs/contract.md#operations (operation 4). */
export const pluginEntriesSchema = z.array(pluginEntrySchema);
