import type { NextFunction, Request, Response } from 'express';
import { parseMediaPath } from '../media/media-path.js';
import { placeholderImage } from '../media/placeholder-image.js';
import type { PluginPackageIndex } from '../media/plugin-index.js';
import { APK_PREFIX, PLUGIN_PREFIX, packageContentType, providerPackage } from '../media/plugin-package.js';

/** How many generated images are kept in memory. */
const IMAGE_CACHE_SIZE = 256;

/**
 * Express middleware serving what `{origin}` URLs in scenario data point at ([node]):
 * - `GET /__mockvideo/media/<kind>/<name>.<png|jpg|jpeg>[?size=WxH][&label=TEXT]`: a placeholder image
 *   (`image/png` or `image/jpeg`) showing `<name>`;
 * - `GET /__mockvideo/plugins/<md5>.<ext>`: the package of the plugin entry whose `url` has this file
 *   name; `GET /__mockvideo/plugins`: every package with its declared and served MD5;
 * - `GET /__mockvideo/apk/<name>.apk`: a placeholder package for a content provider's `apk_url`.
 * Anything else goes on to `next()`. `packages` is read per request (it follows scenario reloads). Errors are 404/400 JSON `{ error }` naming what is served.
 */
export function mediaRoutes(packages: () => PluginPackageIndex) {
  const images = new Map<string, { contentType: string; bytes: Buffer }>();
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = new URL(req.originalUrl, 'http://mockvideo.invalid');
    const path = decodeURIComponent(url.pathname);
    const media = parseMediaPath(path, url.searchParams);
    if (media) {
      if ('error' in media) {
        res.status(404).json({ error: media.error });
        return;
      }
      const key = `${media.seed}?${media.width}x${media.height}&${media.label}`;
      let image = images.get(key);
      if (!image) {
        image = { contentType: media.contentType, bytes: placeholderImage(media) };
        if (images.size >= IMAGE_CACHE_SIZE) images.delete(images.keys().next().value!);
        images.set(key, image);
      }
      res.set({ 'content-type': image.contentType, 'cache-control': 'public, max-age=3600' }).send(image.bytes);
      return;
    }
    const plugins = packages();
    if (path === PLUGIN_PREFIX.slice(0, -1) || path === PLUGIN_PREFIX) {
      res.json({ packages: plugins.list() });
      return;
    }
    if (path.startsWith(PLUGIN_PREFIX)) {
      const file = path.slice(PLUGIN_PREFIX.length);
      const served = plugins.get(file);
      if (!served) {
        res.status(404).json({
          error: `No plugin package ${file}. mockvideo serves the files named by the url of each plugin entry of the loaded scenarios ("{origin}${PLUGIN_PREFIX}<md5>.<ext>").`,
          files: plugins.list().map((p) => p.file),
        });
        return;
      }
      res.set({ 'content-type': served.contentType, 'content-disposition': `attachment; filename="${served.file}"` }).send(Buffer.from(served.bytes));
      return;
    }
    if (path.startsWith(APK_PREFIX)) {
      const file = path.slice(APK_PREFIX.length);
      if (!/^[^/]+\.[A-Za-z0-9]+$/.test(file)) {
        res.status(404).json({ error: `No package at ${path}: use ${APK_PREFIX}<name>.apk.` });
        return;
      }
      res.set({ 'content-type': packageContentType(file), 'content-disposition': `attachment; filename="${file}"` }).send(Buffer.from(providerPackage(file)));
      return;
    }
    next();
  };
}
