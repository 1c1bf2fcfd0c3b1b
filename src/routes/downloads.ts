import { create as contentDisposition } from 'content-disposition';
import { APK_PREFIX, PLUGIN_PREFIX, parseMediaPath } from '../media/media-path.js';
import { placeholderImage } from '../media/placeholder-image.js';
import { pluginPackages, type ServedPackage } from '../media/plugin-index.js';
import { packageContentType, providerPackage } from '../media/plugin-package.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { JSON_CONTENT_TYPE } from '../scenarios/compile.js';
import { errorBody } from './errors.js';
import { decodeName, type Route } from '../normalise/path.js';
import type { Answer } from './request.js';

/**
 * How many generated images and provider packages are kept in memory: making one is slow, and a
 * gallery asks for the same ones again (measured 2026-11-27, 20 runs on the shared 2-core machine
 * at load 18: a 320×180 thumbnail took 205 ms as JPEG, 34 ms as PNG; a kept one costs a `Map` look-up).
 */
const CACHE_SIZE = 256;

/** A download route: a placeholder image, a plugin package (or their list), a provider package. */
export type DownloadRoute = Extract<Route, { kind: 'media' | 'plugins' | 'apk' }>;

/**
 * What the `{origin}` URLs in scenario data point at, so a device works offline (any runtime):
 * - `/__mockvideo/media/<kind>/<name>.<png|jpg|jpeg>[?size=WxH][&label=TEXT]`: a placeholder image showing `<name>`;
 * - `/__mockvideo/plugins/<md5>.<ext>`: the package of the plugin entry whose `url` has this file
 *   name (its MD5 is the entry's `md5`, except where a scenario such as `corrupt-plugin` lies);
 *   `/__mockvideo/plugins`: every package with its declared and served MD5;
 * - `/__mockvideo/apk/<name>.apk`: a placeholder package for a content provider's `apk_url`.
 * Errors are 404/400 JSON `{ error }` naming what is served. Images and provider packages are kept
 * (the last {@link CACHE_SIZE} made); plugin packages are built once per catalog.
 */
export class Downloads {
  readonly #catalog: () => ScenarioCatalog;
  #packages: { catalog: ScenarioCatalog; index: Map<string, ServedPackage> } | undefined;
  /** Generated answers (images, provider packages) by path and query, oldest first. */
  readonly #made = new Map<string, Answer>();

  /** `catalog` is read per request: it follows scenario reloads. */
  constructor(catalog: () => ScenarioCatalog) {
    this.#catalog = catalog;
  }

  /** The plugin packages of the catalog now, indexed once per catalog. */
  #index(): Map<string, ServedPackage> {
    const catalog = this.#catalog();
    if (this.#packages?.catalog !== catalog) this.#packages = { catalog, index: pluginPackages(catalog) };
    return this.#packages.index;
  }

  /** The answer to a GET of a download route with raw query `query` (without `?`). */
  answer(route: DownloadRoute, query: string): Answer {
    if (route.kind === 'plugins') {
      const index = this.#index();
      if (route.file === undefined)
        return {
          status: 200,
          headers: { 'content-type': JSON_CONTENT_TYPE },
          body: JSON.stringify({ packages: [...index.values()].map(({ bytes: _bytes, ...rest }) => rest) }),
        };
      const served = index.get(route.file);
      if (!served)
        return errorBody(
          'MV_NO_DOWNLOAD',
          `No plugin package ${route.file}. mockvideo serves the files named by the url of each plugin entry of the loaded scenarios ("{origin}${PLUGIN_PREFIX}<md5>.<ext>").`,
          { files: [...index.keys()] },
        );
      const headers = { 'content-type': served.contentType, 'content-disposition': contentDisposition(served.file) };
      return { status: 200, headers, body: served.bytes };
    }
    const key = `${route.path}?${query}`;
    const kept = this.#made.get(key);
    if (kept) return kept;
    const made = this.#make(route, query);
    if (made.status !== 200) return made;
    if (this.#made.size >= CACHE_SIZE) this.#made.delete(this.#made.keys().next().value!);
    this.#made.set(key, made);
    return made;
  }

  /** A placeholder image or provider package, made now. */
  #make(route: Extract<DownloadRoute, { kind: 'media' | 'apk' }>, query: string): Answer {
    if (route.kind === 'media') {
      const media = parseMediaPath(decodeName(route.path), new URLSearchParams(query));
      if (!media) return errorBody('MV_NO_DOWNLOAD', `No image at ${route.path}.`);
      if ('error' in media) return errorBody('MV_NO_DOWNLOAD', media.error);
      const headers = { 'content-type': media.contentType, 'cache-control': 'public, max-age=3600' };
      return { status: 200, headers, body: placeholderImage(media) };
    }
    if (!/^[^/]+\.[A-Za-z0-9]+$/.test(route.file))
      return errorBody('MV_NO_DOWNLOAD', `No package at ${route.path}: use ${APK_PREFIX}<name>.apk.`);
    const headers = {
      'content-type': packageContentType(route.file),
      'content-disposition': contentDisposition(route.file),
    };
    return { status: 200, headers, body: providerPackage(route.file) };
  }
}
