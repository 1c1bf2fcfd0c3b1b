import { create as contentDisposition } from 'content-disposition';
import { APK_PREFIX, PLUGIN_PREFIX, parseMediaPath } from '../media/media-path.js';
import { placeholderImage } from '../media/placeholder-image.js';
import { PluginPackageIndex } from '../media/plugin-index.js';
import { packageContentType, providerPackage } from '../media/plugin-package.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { errorBody } from './errors.js';
import { decodeName, type Route } from './path.js';
import type { Answer } from './request.js';

/** How many generated images (and provider packages) are kept in memory. */
const CACHE_SIZE = 256;

/** A download route: a placeholder image, a plugin package (or their list), a provider package. */
export type DownloadRoute = Extract<Route, { kind: 'media' | 'plugins' | 'apk' }>;

function json(value: unknown): Answer {
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) };
}

function remember(cache: Map<string, Answer>, key: string, answer: Answer): Answer {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, answer);
  return answer;
}

/**
 * What the `{origin}` URLs in scenario data point at, so a device works offline (any runtime):
 * - `/__mockvideo/media/<kind>/<name>.<png|jpg|jpeg>[?size=WxH][&label=TEXT]`: a placeholder image showing `<name>`;
 * - `/__mockvideo/plugins/<md5>.<ext>`: the package of the plugin entry whose `url` has this file
 *   name (its MD5 is the entry's `md5`, except where a scenario such as `corrupt-plugin` lies);
 *   `/__mockvideo/plugins`: every package with its declared and served MD5;
 * - `/__mockvideo/apk/<name>.apk`: a placeholder package for a content provider's `apk_url`.
 * Errors are 404/400 JSON `{ error }` naming what is served. Answers are made once and kept (images
 * and provider packages: the last {@link CACHE_SIZE}); plugin packages are built once per catalog.
 */
export class Downloads {
  readonly #catalog: () => ScenarioCatalog;
  #packages: { catalog: ScenarioCatalog; index: PluginPackageIndex; answers: Map<string, Answer> } | undefined;
  readonly #made = new Map<string, Answer>();

  /** `catalog` is read per request: it follows scenario reloads. */
  constructor(catalog: () => ScenarioCatalog) {
    this.#catalog = catalog;
  }

  #packagesNow() {
    const catalog = this.#catalog();
    if (this.#packages?.catalog !== catalog)
      this.#packages = { catalog, index: new PluginPackageIndex(catalog), answers: new Map() };
    return this.#packages;
  }

  /** The answer to a GET of a download route with raw query `query` (without `?`). */
  answer(route: DownloadRoute, query: string): Answer {
    if (route.kind === 'media') {
      const key = `${route.path}?${query}`;
      const made = this.#made.get(key);
      if (made) return made;
      const media = parseMediaPath(decodeName(route.path), new URLSearchParams(query));
      if (!media) return errorBody(404, `No image at ${route.path}.`);
      if ('error' in media) return errorBody(404, media.error);
      return remember(this.#made, key, {
        status: 200,
        headers: { 'content-type': media.contentType, 'cache-control': 'public, max-age=3600' },
        body: placeholderImage(media),
      });
    }
    if (route.kind === 'plugins') {
      const packages = this.#packagesNow();
      if (route.file === undefined) return json({ packages: packages.index.list() });
      const known = packages.answers.get(route.file);
      if (known) return known;
      const served = packages.index.get(route.file);
      if (!served) {
        return errorBody(
          404,
          `No plugin package ${route.file}. mockvideo serves the files named by the url of each plugin entry of the loaded scenarios ("{origin}${PLUGIN_PREFIX}<md5>.<ext>").`,
          {
            files: packages.index.list().map((p) => p.file),
          },
        );
      }
      const answer: Answer = {
        status: 200,
        headers: { 'content-type': served.contentType, 'content-disposition': contentDisposition(served.file) },
        body: served.bytes,
      };
      packages.answers.set(route.file, answer);
      return answer;
    }
    const key = `apk:${route.file}`;
    const made = this.#made.get(key);
    if (made) return made;
    if (!/^[^/]+\.[A-Za-z0-9]+$/.test(route.file))
      return errorBody(404, `No package at ${route.path}: use ${APK_PREFIX}<name>.apk.`);
    return remember(this.#made, key, {
      status: 200,
      headers: {
        'content-type': packageContentType(route.file),
        'content-disposition': contentDisposition(route.file),
      },
      body: providerPackage(route.file),
    });
  }
}
