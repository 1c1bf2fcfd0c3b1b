import { z } from 'zod';
import { parseDeepLink } from './deep-link.js';

/**
 * A content provider: an element of the `data` array of `meta/cp`.
 *
 * `apk_url`, `app_icon`, `top_right_logo` and `cp_link` may be empty strings; a non-empty `cp_link`
 * must be a deep link `{app_scheme}://<target>?<query>`. That exactly one of `apk_url` and `cp_link`
 * is non-empty is "not a stated rule" in the seed, so it is not enforced.
 *
 * @see seed "Resources and their fields" → "Content provider (element of the `data` array of `meta/cp`)".
 */
export const contentProviderSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  apk_url: z.string(),
  app_icon: z.string(),
  top_right_logo: z.string(),
  cp_link: z.string().refine((v) => v === '' || parseDeepLink(v) !== undefined, {
    message: 'cp_link must be an empty string or a deep link of the form {app_scheme}://<target>?<query>',
  }),
});

/** One content provider. @see seed "Content provider". */
export type ContentProvider = z.infer<typeof contentProviderSchema>;

/** The `data` of `meta/cp`: an array of content providers. @see seed "Operations" #2. */
export const contentProvidersSchema = z.array(contentProviderSchema);
