import type { NextFunction, Request, Response } from 'express';
import { API_PREFIX, SUCCESS_MSG, SUCCESS_RESULT, UPGRADE_URI, toServiceJson } from '../contract/index.js';
import { ANSWERED_BY_HEADER, SCENARIO_HEADER, requestedScenario, unknownScenario } from '../handlers/index.js';
import { pluginEntries, type EntryLike } from '../media/plugin-index.js';
import { JSON_CONTENT_TYPE, ORIGIN_PLACEHOLDER, type ScenarioCatalog } from '../scenarios/index.js';

/** The path of the upgrade operation below `/api/g1` (not one of the six seed operations). */
export const UPGRADE_OPERATION = 'meta/upgrade';

const UPGRADE_PATH = new RegExp(`^(?:/scenarios/[^/]+)?${API_PREFIX}/${UPGRADE_OPERATION}/?$`);

/**
 * The `data` mockvideo answers for `meta/upgrade?uri=<scheme>://player-plugin/<id>/<version>`:
 * the plugin entry of the scenario's `meta/plugin` with that `id` and the highest `version` above
 * the asked one, or `{}` when the asked version is the newest. Illustrative: the seed does not show
 * this operation's response ("The upgrade operation's response is not shown").
 *
 * @returns `undefined` when `uri` is missing or not of the seed's form.
 * @see docs/contract.md#plugin-entry → `market_sign` → `ext_<market>_external_url`.
 */
export function upgradeData(entries: readonly EntryLike[], uri: string | null): object | undefined {
  const m = UPGRADE_URI.exec(uri ?? '');
  if (!m) return undefined;
  const [, , id, version] = m;
  const newer = entries.filter((e) => e.id === id && typeof e.version === 'number' && e.version > Number(version));
  newer.sort((a, b) => (b.version as number) - (a.version as number));
  return newer[0] ?? {};
}

/**
 * Express middleware answering `GET /api/g1/meta/upgrade` (also under `/scenarios/<name>`) with the
 * envelope `{"data": …, "msg": "OK", "result": 1}` of {@link upgradeData}, from the scenario the
 * request picks (header, path prefix, else `activeScenario()`); `{origin}` becomes the request's
 * origin; `catalogOf()` is read per request (it follows scenario reloads). 400 `{error}` without a valid `uri`; 404 for an unknown scenario; 405 for other methods.
 */
export function upgradeRoute(catalogOf: () => ScenarioCatalog, activeScenario: () => string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const catalog = catalogOf();
    const url = new URL(req.originalUrl, 'http://mockvideo.invalid');
    if (!UPGRADE_PATH.test(url.pathname)) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).set('allow', 'GET, HEAD').json({ error: `${req.method} is not allowed on ${API_PREFIX}/${UPGRADE_OPERATION}: it is a GET.` });
      return;
    }
    const scenario = requestedScenario(url.pathname, req.get(SCENARIO_HEADER)) ?? activeScenario();
    if (!catalog.has(scenario)) {
      const answer = unknownScenario(scenario, catalog.names);
      res.status(answer.status).set(answer.headers).send(answer.body);
      return;
    }
    const data = upgradeData(pluginEntries(catalog, scenario), url.searchParams.get('uri'));
    if (data === undefined) {
      res.status(400).set(ANSWERED_BY_HEADER, scenario).json({
        error: `${API_PREFIX}/${UPGRADE_OPERATION} needs a query parameter uri of the form <scheme>://player-plugin/<plugin_id>/<version>, as in a plugin entry's ext_<market>_external_url.`,
      });
      return;
    }
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const body = toServiceJson({ data, msg: SUCCESS_MSG, result: SUCCESS_RESULT }).split(ORIGIN_PLACEHOLDER).join(origin);
    res.status(200).set({ 'content-type': JSON_CONTENT_TYPE, [ANSWERED_BY_HEADER]: scenario }).send(body);
  };
}
