/**
 * Generates the shipped scenario files in `scenarios/` (and `scenarios/scenario.schema.json`).
 *
 *   npx tsx scripts/generate-scenarios.ts
 *
 * The JSON files are build output of this script: edit the script, not the JSON. The output is
 * deterministic (no clock, no randomness; checksums are md5 over fixed strings or over the
 * deterministic plugin packages), so a test can compare the committed files with
 * {@link generateScenarioFiles}.
 *
 * Media, package and upgrade URLs start with `{origin}`, which the server replaces with the origin the
 * client used, and point at what mockvideo serves itself (`/__mockvideo/media/...`,
 * `/__mockvideo/plugins/<md5>.apk`, `/__mockvideo/apk/...`, `/api/g1/meta/upgrade`), so an offline
 * device loads everything from mockvideo. A plugin's `md5` is the MD5 of `pluginPackage(...)`, the
 * bytes served at its `url`.
 *
 * Every deep link is built with `buildDeepLink` from the contract, and every list of recommended
 * items with {@link itemList}, so `position` indexes always match the item's place in its list.
 *
 * @see ../shared/seeds/000_07ce0e18af7cd2fb.txt (the interface contract, beside the repository)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  OPERATION_NAMES,
  RECOMMENDATION_PLACEMENT,
  buildDeepLink,
  type AdConfig,
  type ContentProvider,
  type DiversionSet,
  type OperationName,
  type PluginEntry,
  type RecommendedVideo,
  type Settings,
} from '../src/contract/index.js';
import { md5Hex, pluginPackage } from '../src/media/plugin-package.js';
import { scenarioJsonSchema } from '../src/scenarios/editor-schema.js';
import type { ScenarioFaults, Stub } from '../src/scenarios/format.js';

// ---------------------------------------------------------------------------------------------
// Fixed values
// ---------------------------------------------------------------------------------------------

/** The scheme of the player app's deep links. */
const APP_SCHEME = 'videoplayer';
/** The player app's own package / host (also the `ref` the client sends). */
const APP_HOST = 'com.example.videoplayer';
/** The scheme of the device-vendor application store. */
const MARKET_SCHEME = 'appmarket';
/** The `<market>` of `ext_<market>_external_url` and `ext_marketType`. */
const MARKET_NAME = 'appmarket';
/** The placeholder the server replaces with the origin of the request (scheme, host and port). */
const ORIGIN = '{origin}';
/** URL of the (not shown) `meta/upgrade` operation, which mockvideo answers itself. */
const UPGRADE_URL = `${ORIGIN}/api/g1/meta/upgrade`;
const REGION = 'IN';
/** Placeholder images mockvideo draws: `<kind>/<name>.<png|jpg>`, the kind sets the size. */
const MEDIA = `${ORIGIN}/__mockvideo/media`;
/** Plugin packages (`<md5>.apk`) and content-provider packages mockvideo serves. */
const PLUGINS = `${ORIGIN}/__mockvideo/plugins`;
const APKS = `${ORIGIN}/__mockvideo/apk`;
/** The `ref` of a recommendation `target`. */
const TARGET_REF = 'LOCALRECOMM';

/** 32 lowercase hex characters derived from a fixed string (deterministic stand-in for a checksum). */
function hex32(seed: string): string {
  return createHash('md5').update(`mockvideo:${seed}`).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Content providers
// ---------------------------------------------------------------------------------------------

/** What a content provider is made from. `id` has no hyphen (item ids are `V-<provider_id>-<video_id>`). */
interface ProviderSpec {
  id: string;
  name: string;
  /** The provider's host in deep links, e.g. `com.example.streamly`. */
  host: string;
  /** `apk`: a downloadable package (`apk_url`, no `cp_link`); `link`: a deep link (`cp_link`, no `apk_url`). */
  kind: 'apk' | 'link';
  /** Whether `top_right_logo` is set (default true). */
  topRightLogo?: boolean;
}

/** The content providers of the default scenario; every other scenario keeps these ids. */
function providerSpecs(): ProviderSpec[] {
  return [
    { id: 'streamly', name: 'Streamly', host: 'com.example.streamly', kind: 'apk' },
    { id: 'cinebox', name: 'CineBox', host: 'com.example.cinebox', kind: 'link' },
    { id: 'tunetv', name: 'TuneTV', host: 'com.example.tunetv', kind: 'apk' },
    { id: 'kidzone', name: 'KidZone', host: 'com.example.kidzone', kind: 'link' },
    { id: 'newsline', name: 'NewsLine', host: 'com.example.newsline', kind: 'link', topRightLogo: false },
  ];
}

function providerById(id: string): ProviderSpec {
  const provider = providerSpecs().find((p) => p.id === id);
  if (!provider) throw new Error(`unknown provider "${id}"`);
  return provider;
}

/** A content provider entry of `meta/cp`. `withImages: false` leaves `app_icon` and `top_right_logo` empty. */
function contentProvider(spec: ProviderSpec, options: { name?: string; withImages?: boolean } = {}): ContentProvider {
  const withImages = options.withImages ?? true;
  return {
    id: spec.id,
    name: options.name ?? spec.name,
    apk_url: spec.kind === 'apk' ? `${APKS}/${spec.host}.apk` : '',
    app_icon: withImages ? `${MEDIA}/icon/${spec.id}.png` : '',
    top_right_logo: withImages && (spec.topRightLogo ?? true) ? `${MEDIA}/logo/${spec.id}/top-right.png` : '',
    cp_link:
      spec.kind === 'link'
        ? buildDeepLink({
            scheme: APP_SCHEME,
            host: spec.host,
            query: [
              ['action', 'openHome'],
              ['ref', APP_HOST],
            ],
          })
        : '',
  };
}

function defaultContentProviders(): ContentProvider[] {
  return providerSpecs().map((spec) => contentProvider(spec));
}

// ---------------------------------------------------------------------------------------------
// Ad configuration and settings
// ---------------------------------------------------------------------------------------------

/** Illustrative: the seed does not show the fields of a non-empty ad configuration. */
function defaultAdConfig(): AdConfig {
  return {
    enabled: true,
    provider: 'example-ads',
    refresh_interval_seconds: 1800,
    placements: [
      { id: 'pause', type: 'image', min_interval_seconds: 300, max_per_day: 5 },
      { id: 'post_roll', type: 'video', min_interval_seconds: 600, max_per_day: 3, skippable_after_seconds: 5 },
    ],
  };
}

function defaultSettings(): Settings {
  return {
    codec_level: '3',
    disable_codec_name: 'none',
    language_switch: 1,
    recommend_exit_times: 3,
    recommend_exit_times_gallery: 5,
    recommend_exit_times_no_click: 2,
    recommend_exit_times_no_click_gallery: 3,
    recommend_page_control_show_times: 3,
    recommend_page_control_show_times_for_gallery: 5,
    recommend_page_max_show_times_without_click: 4,
    recommend_page_max_show_times_without_click_for_gallery: 6,
    recommend_show_times_interval: 86400,
    recommend_suspend_times: 2,
    recommend_suspend_times_gallery: 3,
    recommend_suspend_times_no_click: 1,
    recommend_suspend_times_no_click_gallery: 2,
  };
}

/** A second, different settings answer (for `settings-twice`). */
function updatedSettings(): Settings {
  return {
    ...defaultSettings(),
    codec_level: '4',
    disable_codec_name: 'hevc',
    language_switch: 0,
    recommend_exit_times: 1,
    recommend_exit_times_gallery: 2,
    recommend_page_control_show_times: 1,
    recommend_show_times_interval: 3600,
    recommend_suspend_times: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Plugins
// ---------------------------------------------------------------------------------------------

interface PluginSpec {
  /** A content-provider id. */
  id: string;
  type: 'player_plugin' | 'app_apk';
  version: number;
  versionName: string;
  /** Unix time in seconds. */
  updatedAt: number;
}

/** The `ext_<market>_external_url` value: the `meta/upgrade` URL naming this plugin and version. */
function upgradeUrl(pluginId: string, version: number): string {
  const query = new URLSearchParams([
    ['uri', `${APP_SCHEME}://player-plugin/${pluginId}/${version}`],
    ['_region', REGION],
  ]);
  return `${UPGRADE_URL}?${query.toString()}`;
}

/**
 * The `md5` of a plugin entry: the MD5 of the package mockvideo serves at its `url`. With `corrupt`,
 * the MD5 of other bytes (the package followed by the text `corrupted`), so the client's check fails.
 */
function packageMd5(spec: PluginSpec, corrupt = false): string {
  const bytes = pluginPackage({ id: spec.id, version: spec.version, type: spec.type });
  return corrupt ? md5Hex(Buffer.concat([bytes, Buffer.from('corrupted')])) : md5Hex(bytes);
}

/** A plugin entry of `meta/plugin`; checksum, file name and signature derive from id, version and type. */
function pluginEntry(spec: PluginSpec, options: { corrupt?: boolean } = {}): PluginEntry {
  const provider = providerById(spec.id);
  const md5 = packageMd5(spec, options.corrupt);
  const isApp = spec.type === 'app_apk';
  const packageName = isApp ? provider.host : `${provider.host}.plugin`;
  const marketQuery: Array<[string, string]> = [
    ['id', packageName],
    ['ref', APP_HOST],
  ];
  const params: PluginEntry['params'] = {
    apk_name: isApp ? `${spec.id}.apk` : `${spec.id}_player_plugin.apk`,
    class_name: isApp ? `${provider.host}.MainActivity` : `${provider.host}.plugin.PlayerPluginEntry`,
    package_name: packageName,
    plugin_type: 'apk',
    need_install: isApp ? 'true' : 'false',
    need_unzip: isApp ? 'false' : 'true',
    silence_install: isApp ? 'false' : 'true',
    always_launch_app: isApp ? 'true' : 'false',
    cancelable_download: 'true',
    show_start_dialog: isApp ? 'true' : 'false',
    display_name: provider.name,
    ...(isApp
      ? { vendor_market_detail: buildDeepLink({ scheme: MARKET_SCHEME, host: 'details', query: marketQuery }) }
      : {}),
    signature: hex32(`plugin/${spec.id}/${spec.version}/signature`),
    version_code: String(spec.version),
  };
  return {
    id: spec.id,
    name: isApp ? provider.name : `${provider.name} player plugin`,
    type: spec.type,
    version: spec.version,
    version_name: spec.versionName,
    updated_at: spec.updatedAt,
    url: `${PLUGINS}/${md5}.apk`,
    md5,
    vendor_market: buildDeepLink({ scheme: MARKET_SCHEME, host: 'download', query: marketQuery }),
    market_sign: {
      appClientId: `10000000000000${String(spec.version).padStart(5, '0')}`,
      appId: `${provider.host}.market`,
      appSignature: hex32(`plugin/${spec.id}/${spec.version}/app-signature`),
      ext_marketType: MARKET_NAME,
      [`ext_${MARKET_NAME}_external_url`]: upgradeUrl(spec.id, spec.version),
      nonce: `${spec.updatedAt}:${spec.version * 7919}`,
      ref: APP_HOST,
    },
    params,
  };
}

function defaultPluginSpecs(): PluginSpec[] {
  return [
    { id: 'streamly', type: 'player_plugin', version: 12, versionName: '1.12.0', updatedAt: 1714521600 },
    { id: 'tunetv', type: 'app_apk', version: 510, versionName: '5.1.0', updatedAt: 1717200000 },
  ];
}

function defaultPlugins(): PluginEntry[] {
  return defaultPluginSpecs().map((spec) => pluginEntry(spec));
}

/**
 * The default plugins with `streamly` replaced by a newer version; with `corrupt`, that entry's `md5`
 * is not the MD5 of the package served at its `url`.
 */
function upgradedPlugins(options: { corrupt?: boolean } = {}): PluginEntry[] {
  return defaultPluginSpecs().map((spec) =>
    spec.id === 'streamly'
      ? pluginEntry({ ...spec, version: 13, versionName: '1.13.0', updatedAt: 1719792000 }, options)
      : pluginEntry(spec),
  );
}

// ---------------------------------------------------------------------------------------------
// Recommended video items
// ---------------------------------------------------------------------------------------------

/** What a recommended video item is made from. Its `position` comes from its place in a list. */
interface ItemSpec {
  /** A content-provider id. */
  provider: string;
  videoId: string;
  title: string;
  /** Seconds. */
  duration: number;
  order: number;
  fullscreen?: boolean;
  transparent?: boolean;
  mode?: string;
  language?: string;
  /** Whether `top_left_logo` / `top_right_logo` are set (default false / true). */
  topLeftLogo?: boolean;
  topRightLogo?: boolean;
}

/**
 * Builds a list of recommended video items in the given order: item `i` gets
 * `position=localplayrecomm||||i` in its `target`, so indexes always match the list.
 */
function itemList(specs: readonly ItemSpec[]): RecommendedVideo[] {
  return specs.map((spec, index) => recommendedVideo(spec, index));
}

/** One recommended video item at zero-based `index` of its list. */
function recommendedVideo(spec: ItemSpec, index: number): RecommendedVideo {
  const provider = providerById(spec.provider);
  const id = `V-${provider.id}-${spec.videoId}`;
  const position = `${RECOMMENDATION_PLACEMENT}||||${index}`;
  const fallback = buildDeepLink({
    scheme: APP_SCHEME,
    host: APP_HOST,
    query: [
      ['action', 'openDetail'],
      ['cp', provider.id],
      ['id', spec.videoId],
    ],
  });
  const back = buildDeepLink({
    scheme: APP_SCHEME,
    host: APP_HOST,
    query: [
      ['action', 'openLocalRecommend'],
      ['ref', TARGET_REF],
    ],
  });
  const target = buildDeepLink({
    scheme: APP_SCHEME,
    host: provider.host,
    query: [
      ['action', 'playVideo'],
      ['id', spec.videoId],
      ['fullscreen', String(spec.fullscreen ?? true)],
      ['transparent', String(spec.transparent ?? false)],
      ['default', fallback],
      ['detail_id', id],
      ['mode', spec.mode ?? 'normal'],
      ['language', spec.language ?? 'English'],
      ['position', position],
      ['back_scheme', back],
      ['ref', TARGET_REF],
    ],
  });
  const viewLog = buildDeepLink({
    scheme: APP_SCHEME,
    host: APP_HOST,
    query: [
      ['action', 'log'],
      ['event', 'VIEW'],
      ['detail_id', id],
      ['position', position],
      ['ref', TARGET_REF],
    ],
  });
  return {
    id,
    title: spec.title,
    duration: spec.duration,
    image_url: `${MEDIA}/thumb/${provider.id}/${spec.videoId}.jpg`,
    order: spec.order,
    type: 'video',
    target,
    target_addition: [viewLog],
    top_left_logo: (spec.topLeftLogo ?? false) ? `${MEDIA}/badge/${provider.id}/top-left.png` : '',
    top_right_logo: (spec.topRightLogo ?? true) ? `${MEDIA}/logo/${provider.id}/top-right.png` : '',
  };
}

/**
 * A diversion set: the same items in `end`, `exit` and `suspend`, each in descending `order`
 * (a stable sort, so equal values keep their spec order) with positions indexed per array.
 */
function diversionSet(specs: readonly ItemSpec[]): DiversionSet {
  const sorted = [...specs].sort((a, b) => b.order - a.order);
  return { end: itemList(sorted), exit: itemList(sorted), suspend: itemList(sorted) };
}

function emptyDiversionSet(): DiversionSet {
  return diversionSet([]);
}

/** The default scenario's videos: titles in Latin, Devanagari, Arabic, CJK and with emoji. */
function videos() {
  return {
    monsoon: {
      provider: 'streamly',
      videoId: 'sv1001',
      title: 'Monsoon Diaries: Episode 1',
      duration: 1432,
      order: 98,
      topLeftLogo: true,
    },
    dil: {
      provider: 'cinebox',
      videoId: 'cb2040',
      title: 'दिल की बातें',
      duration: 7925,
      order: 95,
      language: 'Hindi',
      mode: 'movie',
    },
    cairo: {
      provider: 'tunetv',
      videoId: 'tt3107',
      title: 'ليالي القاهرة',
      duration: 2710,
      order: 90,
      language: 'Arabic',
    },
    bear: {
      provider: 'kidzone',
      videoId: 'kz0420',
      title: '小熊的冒险 第3集',
      duration: 660,
      order: 90,
      language: 'Chinese',
      topRightLogo: false,
    },
    cricket: {
      provider: 'newsline',
      videoId: 'nl5521',
      title: 'Cricket highlights 🏏🔥',
      duration: 312,
      order: 84,
      mode: 'short',
    },
    tokyo: {
      provider: 'streamly',
      videoId: 'sv1017',
      title: '東京の夜 Tokyo Nights',
      duration: 5400,
      order: 80,
      language: 'Japanese',
      mode: 'movie',
    },
    retro: {
      provider: 'cinebox',
      videoId: 'cb2101',
      title: 'Retro Beats ✨ 90s Remix',
      duration: 1980,
      order: 90,
      fullscreen: false,
    },
    top20: {
      provider: 'tunetv',
      videoId: 'tt3160',
      title: 'Bollywood Top 20 — साप्ताहिक चार्ट',
      duration: 3605,
      order: 72,
      language: 'Hindi',
    },
  } satisfies Record<string, ItemSpec>;
}

function defaultRecommendationSpecs(): ItemSpec[] {
  const v = videos();
  return [v.monsoon, v.dil, v.cairo, v.bear, v.cricket, v.tokyo];
}

/** Diversion items for playback started from the gallery. */
function galleryDiversionSpecs(): ItemSpec[] {
  const v = videos();
  return [v.dil, v.bear, v.retro, v.top20];
}

/** Diversion items for other playback. */
function nonGalleryDiversionSpecs(): ItemSpec[] {
  const v = videos();
  return [v.monsoon, v.cairo, v.cricket];
}

// ---------------------------------------------------------------------------------------------
// i18n stress data
// ---------------------------------------------------------------------------------------------

const LONG_LATIN = [
  'The Extraordinarily Long and Winding Chronicle of a Small Town Film Festival',
  'Where Every Screening Ran Late, Every Projector Overheated, and Every Audience Stayed',
  'Until Dawn to Argue About Endings: The Complete Director’s Cut, Remastered,',
  'With Commentary From the Cast, the Crew, the Caterers & the Night Watchman (Part 1 of 12)',
].join(' ');

const LONG_DEVANAGARI = [
  'एक बहुत लंबी कहानी जिसमें एक छोटे से गाँव के लोग हर साल बारिश के मौसम में मिलकर एक फ़िल्म समारोह करते हैं,',
  'जहाँ हर फ़िल्म देर से शुरू होती है, हर दर्शक सुबह तक रुकता है और हर अंत पर बहस होती है —',
  'पूरा संस्करण, नई ध्वनि और निर्देशक की टिप्पणी के साथ, भाग एक',
].join(' ');

const LONG_ARABIC = [
  'الحكاية الطويلة جداً لمهرجان سينمائي صغير في مدينة ساحلية، حيث تبدأ كل العروض متأخرة',
  'ويبقى الجمهور حتى الفجر ليتجادل حول النهايات — النسخة الكاملة المرممة مع تعليق المخرج',
  'والممثلين وطاقم العمل، الجزء الأول من اثني عشر جزءاً',
].join(' ');

/** Titles that stress rendering: long text, right-to-left, combining marks, emoji sequences, escaping. */
function stressSpecs(): ItemSpec[] {
  const empty = { topLeftLogo: false, topRightLogo: false };
  return [
    { provider: 'streamly', videoId: 'sx0001', title: LONG_LATIN, duration: 36000, order: 100, ...empty },
    {
      provider: 'cinebox',
      videoId: 'cx0002',
      title: LONG_DEVANAGARI,
      duration: 8100,
      order: 99,
      language: 'Hindi',
      ...empty,
    },
    {
      provider: 'tunetv',
      videoId: 'tx0003',
      title: LONG_ARABIC,
      duration: 5400,
      order: 98,
      language: 'Arabic',
      ...empty,
    },
    {
      provider: 'kidzone',
      videoId: 'kx0004',
      title: 'סרט תיעודי: הדרך הארוכה לירושלים (גרסה מורחבת) – פרק 3',
      duration: 2820,
      order: 97,
      language: 'Hebrew',
      ...empty,
    },
    {
      provider: 'newsline',
      videoId: 'nx0005',
      title: 'Episode 5: مرحبا بالعالم — שלום עולם — part 2',
      duration: 1500,
      order: 97,
      ...empty,
    },
    {
      provider: 'streamly',
      videoId: 'sx0006',
      title: 'Z̤̈a̧͂l̷̛g̸̨o̵̢ ť̷ë̷x̷t̷ · A\u030Angstro\u0308m · Tiếng Việt · สวัสดีครับ · क्षत्रिय',
      duration: 95,
      order: 90,
      ...empty,
    },
    {
      provider: 'cinebox',
      videoId: 'cx0007',
      title: 'Family night 👨‍👩‍👧‍👦 with 🧑🏽‍💻 & 👩🏿‍🚀 — waves 👋🏻👋🏼👋🏽👋🏾👋🏿',
      duration: 4200,
      order: 88,
      ...empty,
    },
    {
      provider: 'tunetv',
      videoId: 'tx0008',
      title: 'World Cup 🇮🇳 vs 🇧🇷 vs 🇯🇵 vs 🇸🇦 🏳️‍🌈 🏴‍☠️',
      duration: 7200,
      order: 88,
      ...empty,
    },
    {
      provider: 'kidzone',
      videoId: 'kx0009',
      title: 'می‌خواهم ببینم · 子供向けアニメ「ねこのひるね」第１２話 · 한국어 제목',
      duration: 720,
      order: 80,
      language: 'Persian',
      ...empty,
    },
    {
      provider: 'newsline',
      videoId: 'nx0010',
      title: 'Tom & Jerry "Classic" <Special> \\ back/slash & \u200Bzero\u200Dwidth',
      duration: 420,
      order: 75,
      ...empty,
    },
  ];
}

/** Provider display names in several scripts, for `i18n-stress`. */
const STRESS_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  streamly: 'स्ट्रीमली Streamly',
  cinebox: 'سينما بوكس',
  tunetv: 'טיון TV',
  kidzone: 'キッズゾーン 🧸',
  newsline: 'NewsLine 📰🇮🇳',
};

function stressContentProviders(): ContentProvider[] {
  return providerSpecs().map((spec) =>
    contentProvider(spec, { name: STRESS_PROVIDER_NAMES[spec.id] ?? spec.name, withImages: false }),
  );
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

type OperationEntry = Stub | Stub[];

interface ScenarioSpec {
  description: string;
  extends?: string;
  operations: Partial<Record<OperationName, OperationEntry>>;
  faults?: ScenarioFaults;
}

/** The three-stub diversion answer: gallery, non-gallery, and a fallback for requests without the parameter. */
function diversionByGallery(gallery: DiversionSet, nonGallery: DiversionSet, fallback: DiversionSet): Stub[] {
  return [
    { when: { query: { is_from_gallery: 'true' } }, data: gallery },
    { when: { query: { is_from_gallery: 'false' } }, data: nonGallery },
    { data: fallback },
  ];
}

function scenarios(): Record<string, ScenarioSpec> {
  const gallery = diversionSet(galleryDiversionSpecs());
  const nonGallery = diversionSet(nonGalleryDiversionSpecs());
  return {
    default: {
      description:
        'Realistic answers for all six operations; other scenarios extend it. The ad_config fields are illustrative (the seed does not show them).',
      operations: {
        ad_config: { data: defaultAdConfig() },
        'meta/cp': { data: defaultContentProviders() },
        'meta/setting': { data: defaultSettings() },
        'meta/plugin': { data: defaultPlugins() },
        'localplay/diversion': diversionByGallery(gallery, nonGallery, gallery),
        'localplay/recomm': { data: itemList(defaultRecommendationSpecs()) },
      },
    },
    'empty-ad-config': {
      description: 'No advertisement configuration applies: ad_config answers an empty object.',
      extends: 'default',
      operations: { ad_config: { data: {} } },
    },
    gallery: {
      description: 'Diversion items only for playback from the gallery (is_from_gallery=true); empty arrays otherwise.',
      extends: 'default',
      operations: { 'localplay/diversion': diversionByGallery(gallery, emptyDiversionSet(), emptyDiversionSet()) },
    },
    'non-gallery': {
      description:
        'Diversion items only for playback not from the gallery (is_from_gallery=false); empty arrays otherwise, also without the parameter.',
      extends: 'default',
      operations: { 'localplay/diversion': diversionByGallery(emptyDiversionSet(), nonGallery, emptyDiversionSet()) },
    },
    'plugin-upgrade': {
      description:
        "A newer version (13) of the streamly player plugin than in default (12), to exercise the client's plugin upgrade.",
      extends: 'default',
      operations: { 'meta/plugin': { data: upgradedPlugins() } },
    },
    'corrupt-plugin': {
      description:
        "The streamly plugin upgrade of plugin-upgrade (version 13), but its md5 is not the MD5 of the package served at its url: the client's checksum check fails.",
      extends: 'default',
      operations: { 'meta/plugin': { data: upgradedPlugins({ corrupt: true }) } },
    },
    'no-recommendations': {
      description: 'No recommendations: localplay/recomm answers [] and every diversion array is empty.',
      extends: 'default',
      operations: {
        'localplay/diversion': { data: emptyDiversionSet() },
        'localplay/recomm': { data: [] },
      },
    },
    'i18n-stress': {
      description:
        'Rendering stress: very long titles, right-to-left text, combining marks, emoji sequences, empty logos and providers without images.',
      extends: 'default',
      operations: {
        'meta/cp': { data: stressContentProviders() },
        'localplay/diversion': { data: diversionSet(stressSpecs()) },
        'localplay/recomm': { data: itemList(stressSpecs()) },
      },
    },
    'server-error': {
      description:
        "ad_config, meta/setting and meta/plugin answer HTTP 500 (the seed's Errors section: the client logs failed fetches of operations 1, 3 and 4); the others answer normally.",
      extends: 'default',
      operations: {},
      faults: {
        ad_config: { kind: 'status', status: 500 },
        'meta/setting': { kind: 'status', status: 500 },
        'meta/plugin': { kind: 'status', status: 500 },
      },
    },
    'slow-network': {
      description: 'Every operation answers as in default after 1.5 to 3 seconds of latency.',
      extends: 'default',
      operations: {},
      faults: { '*': { kind: 'delay', ms: [1500, 3000] } },
    },
    flaky: {
      description:
        'A deterministic 30% of requests to each operation fail (HTTP 503, seed 7: the same requests fail on every run); the rest answer as in default.',
      extends: 'default',
      operations: {},
      faults: { '*': { kind: 'status', status: 503, rate: 0.3, seed: 7 } },
    },
    'connection-reset': {
      description: 'Every operation resets the connection: the client sees a network error, no HTTP answer.',
      extends: 'default',
      operations: {},
      faults: { '*': { kind: 'reset' } },
    },
    'settings-twice': {
      description:
        'meta/setting answers different settings on its first and second call (the client may call it twice per start-up); the second repeats.',
      extends: 'default',
      operations: { 'meta/setting': { sequence: [{ data: defaultSettings() }, { data: updatedSettings() }] } },
    },
  };
}

/** The file text of one scenario: `$schema`, `description`, optional `extends`, then `operations` in the seed's order. */
function scenarioText(spec: ScenarioSpec): string {
  const operations = Object.fromEntries(
    OPERATION_NAMES.filter((op) => spec.operations[op] !== undefined).map((op) => [op, spec.operations[op]]),
  );
  const file = {
    $schema: './scenario.schema.json',
    description: spec.description,
    ...(spec.extends !== undefined ? { extends: spec.extends } : {}),
    operations,
    ...(spec.faults !== undefined ? { faults: spec.faults } : {}),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The shipped scenario files: file name (`<scenario>.json`) → exact file text. */
export function generateScenarioFiles(): Record<string, string> {
  return Object.fromEntries(Object.entries(scenarios()).map(([name, spec]) => [`${name}.json`, scenarioText(spec)]));
}

/** The file name of the JSON Schema for editors. */
export const SCHEMA_FILE_NAME = 'scenario.schema.json';

/** The text of `scenarios/scenario.schema.json` (from the contract via `scenarioJsonSchema()`). */
export function generateSchemaFile(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}

/** Every file this script writes to `scenarios/`: the scenario files plus the JSON Schema. */
export function generateAllFiles(): Record<string, string> {
  return { ...generateScenarioFiles(), [SCHEMA_FILE_NAME]: generateSchemaFile() };
}

/** Writes every generated file to `dir`; warns about `.json` files there that this script does not generate. */
export function writeScenarioFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files = generateAllFiles();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const stale = readdirSync(dir).filter((f) => f.endsWith('.json') && !(f in files));
  for (const f of stale)
    console.warn(`warning: ${join(dir, f)} is not generated by this script; delete it if it is stale`);
  return Object.keys(files);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios');
  const written = writeScenarioFiles(dir);
  console.log(`wrote ${written.length} files to ${dir}: ${written.join(', ')}`);
}
