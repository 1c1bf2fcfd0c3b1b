import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../scenarios/catalog.js';
import { parseScenario } from '../scenarios/parse.js';
import { shippedScenarios } from '../scenarios/shipped.js';
import { bodyText } from './request.js';
import { upgradeAnswer } from './upgrade.js';

/** The `meta/plugin` data of a shipped scenario file. */
const pluginData = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../scenarios/${name}.json`, import.meta.url), 'utf8')).operations['meta/plugin']
    .data;

// Two answers of meta/plugin: streamly 12 (default's) and 13 (plugin-upgrade's); tunetv 510 in both.
const parsed = parseScenario(
  'two-versions',
  {
    extends: 'default',
    operations: {
      'meta/plugin': { sequence: [{ data: pluginData('default') }, { data: pluginData('plugin-upgrade') }] },
    },
  },
  'two-versions.json',
);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const catalog = buildCatalog([...shippedScenarios(), parsed.scenario]);

const upgrade = (uri: string | undefined, scenario = 'two-versions') => {
  const answer = upgradeAnswer(
    catalog,
    scenario,
    uri === undefined ? '' : `uri=${encodeURIComponent(uri)}`,
    'http://o',
  );
  return { status: answer.status, body: JSON.parse(bodyText(answer)) };
};

describe('GET /api/g1/meta/upgrade', () => {
  it('answers the newest entry of the plugin above the asked version, with the origin filled in', () => {
    const { status, body } = upgrade('videoplayer://player-plugin/streamly/11');
    expect(status).toBe(200);
    expect(body).toMatchObject({ msg: 'OK', result: 1, data: { id: 'streamly', version: 13 } });
    expect(body.data.url).toMatch(/^http:\/\/o\/__mockvideo\/plugins\//);
    expect(upgrade('videoplayer://player-plugin/streamly/12').body.data).toMatchObject({ version: 13 });
  });

  it('answers {} when the asked version is the newest, or the plugin is unknown', () => {
    expect(upgrade('videoplayer://player-plugin/streamly/13').body.data).toEqual({});
    expect(upgrade('videoplayer://player-plugin/ghost/1').body.data).toEqual({});
  });

  it('answers 400 without a uri of the seed form, 404 for an unknown scenario', () => {
    expect(upgrade(undefined).status).toBe(400);
    expect(upgrade('streamly/11').status).toBe(400);
    expect(upgrade('videoplayer://player-plugin/streamly/11', 'nope').status).toBe(404);
  });
});
