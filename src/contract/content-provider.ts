import { z } from 'zod';
import { parseDeepLink } from './deep-link.js';

/**
 * A content provider: an element of the `data` array of `meta/cp`.
 *
 * `apk_url`, `app_icon`, `top_right_logo` and `cp_link` may be empty strings; a non-empty `cp_link`
 * must be a deep link `{app_scheme}://<target>?<query>`. That exactly one of `apk_url` and `cp_link`
 * is non-empty is "not a stated rule" in the seed, so it is not enforced.
 *
 * @see docs/contract.md#content-provider.
 */
export const contentProviderSchema = z.strictObject({
  /** Short identifier of the provider (also the `id` of its plugin entry). */
  id: z.string().min(1),
  /** Name shown to the user. */
  name: z.string(),
  /** URL of a package to download; empty string when there is none. */
  apk_url: z.string(),
  /** Image URL; may be an empty string. */
  app_icon: z.string(),
  /** Image URL; may be an empty string. */
  top_right_logo: z.string(),
  /** Deep link `{app_scheme}://<target>?<query>` that opens the provider; empty string when there is none. */
  cp_link: z.string().refine((v) => v === '' || parseDeepLink(v) !== undefined, {
    message: 'cp_link must be an empty string or a deep link of the form {app_scheme}://<target>?<query>',
  }),
});

/** One content provider. @see docs/contract.md#content-provider. */
export type ContentProvider = z.infer<typeof contentProviderSchema>;

/** The `data` of `meta/cp`: an array of content providers. @see docs/contract.md#operations (operation 2). */
export const contentProvidersSchema = z.array(contentProviderSchema);
