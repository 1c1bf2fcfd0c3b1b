/**
 * The contract's types are interfaces, so that an editor shows each field's docstring (unit, "may be
 * empty", shape) on hover, which the type `z.infer` of a schema does not. Each line below fails to
 * compile when an interface and the type its schema infers differ, so the two cannot drift apart.
 * Type-only: no entry imports this module.
 * @module
 */
import type { z } from 'zod';
import type { AdConfig, adConfigSchema } from './ad-config.js';
import type { ContentProvider, contentProviderSchema } from './content-provider.js';
import type { DiversionSet, diversionSetSchema } from './diversion.js';
import type {
  MarketSign,
  marketSignSchema,
  PluginEntry,
  pluginEntrySchema,
  PluginParams,
  pluginParamsSchema,
} from './plugin.js';
import type { RecommendedVideo, recommendedVideoSchema } from './recommended-video.js';
import type { Settings, settingsSchema } from './settings.js';

/** `true` when `A` and `B` are the same type (mutually assignable is not enough: `any`, optional and readonly fields count), else `false`. */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
type Holds<T extends true> = T;

/** One entry per declared type: its interface and the type its schema infers are the same. */
export type ContractTypesMatchSchemas = [
  Holds<SameType<AdConfig, z.infer<typeof adConfigSchema>>>,
  Holds<SameType<ContentProvider, z.infer<typeof contentProviderSchema>>>,
  Holds<SameType<DiversionSet, z.infer<typeof diversionSetSchema>>>,
  Holds<SameType<MarketSign, z.infer<typeof marketSignSchema>>>,
  Holds<SameType<PluginEntry, z.infer<typeof pluginEntrySchema>>>,
  Holds<SameType<PluginParams, z.infer<typeof pluginParamsSchema>>>,
  Holds<SameType<RecommendedVideo, z.infer<typeof recommendedVideoSchema>>>,
  Holds<SameType<Settings, z.infer<typeof settingsSchema>>>,
];
