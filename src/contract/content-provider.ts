import { z } from 'zod';
import { parseDeepLink } from './deep-link.js';

/**
 * A content provider: an element of the `data` array of `meta/cp`; the type
 * {@link contentProviderSchema} infers (the build checks that they are the same). That
 * exactly one of `apk_url` and `cp_link` is non-empty is "not a stated rule" in the seed.
 *
 * @see docs/contract.md#content-provider (seed: "Content provider").
 */
export interface ContentProvider {
  /** Short identifier of the provider, not empty (also the `id` of its plugin entry). */
  id: string;
  /** Name shown to the user. */
  name: string;
  /** URL of a package to download; an empty string when there is none. */
  apk_url: string;
  /** Image URL; may be an empty string. */
  app_icon: string;
  /** Image URL; may be an empty string. */
  top_right_logo: string;
  /** Deep link `{app_scheme}://<target>?<query>` that opens the provider; an empty string when there is none. */
  cp_link: string;
}

/** The schema of a {@link ContentProvider} (its fields' docstrings say what each holds). @see docs/contract.md#content-provider. */
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

/** The `data` of `meta/cp`: an array of content providers. @see docs/contract.md#operations (operation 2). */
export const contentProvidersSchema = z.array(contentProviderSchema);
