import { API_PREFIX, SUCCESS_MSG, SUCCESS_RESULT, UPGRADE_URI, toServiceJson } from '../contract/core.js';
import { pluginEntries, type EntryLike } from '../media/plugin-entries.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { JSON_CONTENT_TYPE, ORIGIN_PLACEHOLDER } from '../scenarios/compile.js';
import { errorBody, unknownScenario } from './errors.js';
import { UPGRADE_OPERATION } from '../normalise/path.js';
import type { Answer } from './request.js';

/**
 * The `data` mockvideo answers for `meta/upgrade?uri=<scheme>://player-plugin/<id>/<version>`:
 * the plugin entry of the scenario's `meta/plugin` with that `id` and the highest `version` above
 * the asked one, or `{}` when the asked version is the newest. Illustrative: the seed does not show
 * this operation's response ("The upgrade operation's response is not shown").
 *
 * @returns `undefined` when `uri` is missing or not of the seed's form.
 * @see docs/contract.md#plugin-entry (`market_sign`, `ext_<market>_external_url`).
 */
function upgradeData(entries: readonly EntryLike[], uri: string | null): object | undefined {
  const m = UPGRADE_URI.exec(uri ?? '');
  if (!m) return undefined;
  const [, , id, version] = m;
  const newer = entries.filter((e) => e.id === id && typeof e.version === 'number' && e.version > Number(version));
  newer.sort((a, b) => (b.version as number) - (a.version as number));
  return newer[0] ?? {};
}

/**
 * The answer to `GET /api/g1/meta/upgrade?<query>` from `scenario` of `catalog`: the envelope
 * `{"data": …, "msg": "OK", "result": 1}` of {@link upgradeData} with `{origin}` made `origin`;
 * 400 `{error}` without a valid `uri`; 404 for an unknown scenario. The method is the caller's check;
 * the caller's plan names the scenario.
 */
export function upgradeAnswer(catalog: ScenarioCatalog, scenario: string, query: string, origin: string): Answer {
  if (!catalog.has(scenario)) return unknownScenario(scenario, catalog.names);
  const data = upgradeData(pluginEntries(catalog, scenario), new URLSearchParams(query).get('uri'));
  if (data === undefined)
    return errorBody(
      'MV_REQUEST_INVALID',
      `${API_PREFIX}/${UPGRADE_OPERATION} needs a query parameter uri of the form <scheme>://player-plugin/<plugin_id>/<version>, as in a plugin entry's ext_<market>_external_url.`,
    );
  const body = toServiceJson({ data, msg: SUCCESS_MSG, result: SUCCESS_RESULT }).split(ORIGIN_PLACEHOLDER).join(origin);
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body };
}
