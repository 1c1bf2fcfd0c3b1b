/**
 * The download paths (placeholder images, plugin and provider packages), and what a placeholder image URL asks for: `/__mockvideo/media/<kind>/<path>.<png|jpg|jpeg>` with
 * optional `?size=WxH` and `?label=TEXT`. Pure, any runtime.
 * @module
 */

/** The path prefix of placeholder images. */
export const MEDIA_PREFIX = '/__mockvideo/media/';

/** The path prefix of plugin packages: `/__mockvideo/plugins/<md5>.<ext>`. */
export const PLUGIN_PREFIX = '/__mockvideo/plugins/';

/** The path prefix of content-provider packages (`apk_url`): `/__mockvideo/apk/<name>.apk`. */
export const APK_PREFIX = '/__mockvideo/apk/';

/** Default size in pixels (`[width, height]`) by the first path segment; any other kind is 128×128. */
const MEDIA_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  thumb: [320, 180],
  icon: [96, 96],
  logo: [120, 48],
  badge: [64, 32],
};

/** The largest width or height `?size=` may ask for, in pixels. */
const MAX_MEDIA_SIDE = 1024;

/** An image to draw: format, size in pixels, the text to draw and the seed of its colour (the path). */
export interface MediaRequest {
  format: 'png' | 'jpeg';
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  label: string;
  /** What the colour is derived from: the path without the query. */
  seed: string;
}

/**
 * Reads a placeholder image request from a URL path and query. `undefined` when the path is not under
 * {@link MEDIA_PREFIX}; `{ error }` when it is but cannot be served (unknown extension, bad size).
 *
 * @example parseMediaPath('/__mockvideo/media/thumb/streamly/sv1001.jpg', new URLSearchParams())
 * // { format: 'jpeg', contentType: 'image/jpeg', width: 320, height: 180, label: 'sv1001', seed: '/__mockvideo/media/thumb/streamly/sv1001.jpg' }
 */
export function parseMediaPath(pathname: string, query: URLSearchParams): MediaRequest | { error: string } | undefined {
  if (!pathname.startsWith(MEDIA_PREFIX)) return undefined;
  const rest = pathname.slice(MEDIA_PREFIX.length);
  const m = /^(?:(.*)\/)?([^/]+)\.(png|jpe?g)$/i.exec(rest);
  if (!m)
    return {
      error: `No image at ${pathname}: placeholder images end in .png, .jpg or .jpeg, e.g. ${MEDIA_PREFIX}thumb/1.png.`,
    };
  const format = m[3]!.toLowerCase() === 'png' ? 'png' : 'jpeg';
  const kind = (m[1] ?? '').split('/')[0] ?? '';
  let [width, height] = MEDIA_SIZES[kind] ?? [128, 128];
  const size = query.get('size');
  if (size !== null) {
    const s = /^(\d{1,4})x(\d{1,4})$/.exec(size);
    if (!s || Number(s[1]) < 1 || Number(s[2]) < 1 || Number(s[1]) > MAX_MEDIA_SIDE || Number(s[2]) > MAX_MEDIA_SIDE) {
      return {
        error: `size must be WIDTHxHEIGHT in pixels, each 1 to ${MAX_MEDIA_SIDE}, e.g. size=320x180; got "${size}".`,
      };
    }
    [width, height] = [Number(s[1]), Number(s[2])];
  }
  return {
    format,
    contentType: format === 'png' ? 'image/png' : 'image/jpeg',
    width,
    height,
    label: query.get('label') ?? m[2]!,
    seed: pathname,
  };
}
