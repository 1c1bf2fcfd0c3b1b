/**
 * The one path rule of mockvideo's device-facing surface: which route a request path goes to.
 * Every adapter (the MSW handlers, the Node host, the recorder) reads paths through {@link routeOf}.
 * Pure, any runtime.
 * @module
 */
import { API_PREFIX, isOperationName, type OperationName } from '../contract/core.js';
import { APK_PREFIX, MEDIA_PREFIX, PLUGIN_PREFIX } from '../media/media-path.js';

/** The path prefix of mockvideo's own surface (admin API, dashboard, downloads). */
const OWN_PREFIX = '/__mockvideo';
/** The path of the upgrade operation below `/api/g1` (not one of the six seed operations). */
export const UPGRADE_OPERATION = 'meta/upgrade';

/**
 * Where a request goes. `scenario` is the name of a `/scenarios/<name>` prefix (percent-decoded),
 * or `undefined` without one. `path` is the normalised path (see {@link normalisePath}).
 */
export type Route =
  | {
      readonly kind: 'operation';
      readonly operation: OperationName;
      readonly scenario: string | undefined;
      readonly path: string;
    }
  | { readonly kind: 'upgrade'; readonly scenario: string | undefined; readonly path: string }
  /** Under `/api/g1` but neither an operation nor `meta/upgrade`. */
  | { readonly kind: 'unknown-operation'; readonly path: string }
  | { readonly kind: 'media'; readonly path: string }
  /** `file` is `undefined` for the listing `/__mockvideo/plugins`. */
  | { readonly kind: 'plugins'; readonly file: string | undefined; readonly path: string }
  | { readonly kind: 'apk'; readonly file: string; readonly path: string }
  /** The rest of `/__mockvideo`: the admin API and the dashboard, the host's own. */
  | { readonly kind: 'admin'; readonly path: string }
  /** Anything else: not mockvideo's device-facing surface. */
  | { readonly kind: 'other'; readonly path: string };

/** A path that needs no normalisation: segments of plain characters, no dot segment, no trailing slash. */
const CANONICAL = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9_~.-]+)+$/;
const UNRESERVED = /[A-Za-z0-9_~.-]/;

/**
 * A request path as the routes read it (RFC 3986 normalisation, plus what servers commonly do):
 * the fragment (`#…`) cut, percent-encoded unreserved characters decoded (`%5F` → `_`; other
 * escapes kept, upper-cased), `\` read as `/`, empty segments (double slashes, a trailing slash)
 * and dot segments removed. Idempotent; never throws.
 *
 * @example normalisePath('/%5F%5Fmockvideo//media/./a/../thumb/1.png/') // '/__mockvideo/media/thumb/1.png'
 */
function normalisePath(raw: string): string {
  const hash = raw.indexOf('#');
  let path = hash < 0 ? raw : raw.slice(0, hash);
  if (CANONICAL.test(path)) return path;
  path = path.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** `name` with its percent-escapes decoded (as UTF-8), or as it is when one does not decode. */
export function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

const SCENARIO_PREFIX = /^\/scenarios\/([^/]+)(?=\/)/;

/**
 * The route of a request path as sent (`/scenarios/gallery/api/g1/meta/cp`, no query), after
 * {@link normalisePath}: an operation, `meta/upgrade` or another path under `/api/g1` (each
 * optionally below `/scenarios/<name>`), a placeholder image, a plugin or provider package, the
 * rest of `/__mockvideo`, or anything else. Never throws.
 *
 * @example routeOf('/scenarios/gallery/api/g1/meta/cp') // { kind: 'operation', operation: 'meta/cp', scenario: 'gallery', … }
 * @see docs/contract.md#operations.
 */
export function routeOf(rawPath: string): Route {
  const path = normalisePath(rawPath);
  let rest = path;
  let scenario: string | undefined;
  const prefixed = SCENARIO_PREFIX.exec(path);
  if (prefixed) {
    scenario = decodeName(prefixed[1]!);
    rest = path.slice(prefixed[0].length);
  }
  if (rest.startsWith(`${API_PREFIX}/`)) {
    const name = rest.slice(API_PREFIX.length + 1);
    if (isOperationName(name)) return { kind: 'operation', operation: name, scenario, path };
    if (name === UPGRADE_OPERATION) return { kind: 'upgrade', scenario, path };
    return { kind: 'unknown-operation', path };
  }
  if (rest === API_PREFIX) return { kind: 'unknown-operation', path };
  if (prefixed) return { kind: 'other', path };
  if (path.startsWith(MEDIA_PREFIX)) return { kind: 'media', path };
  if (path === PLUGIN_PREFIX.slice(0, -1)) return { kind: 'plugins', file: undefined, path };
  if (path.startsWith(PLUGIN_PREFIX))
    return { kind: 'plugins', file: decodeName(path.slice(PLUGIN_PREFIX.length)), path };
  if (path.startsWith(APK_PREFIX)) return { kind: 'apk', file: decodeName(path.slice(APK_PREFIX.length)), path };
  if (path === OWN_PREFIX || path.startsWith(`${OWN_PREFIX}/`)) return { kind: 'admin', path };
  return { kind: 'other', path };
}

/**
 * The path the recorder forwards a route to on its upstream (below the upstream's own path prefix):
 * `/api/g1/<operation>` or `/api/g1/meta/upgrade`, the route's normalised path without a
 * `/scenarios/<name>` prefix; `undefined` for any other route, which is never forwarded (so no
 * spelling such as `/api/g1/..%2f..%2fadmin` reaches a path outside `/api/g1` on the upstream).
 * @example forwardPath(routeOf('/api/g1/./meta/setting')) // '/api/g1/meta/setting'
 */
export function forwardPath(route: Route): string | undefined {
  if (route.kind === 'operation') return `${API_PREFIX}/${route.operation}`;
  if (route.kind === 'upgrade') return `${API_PREFIX}/${UPGRADE_OPERATION}`;
  return undefined;
}
