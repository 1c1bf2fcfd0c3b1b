import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS, envelopeSchema, type OperationName } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

/** The shipped scenarios whose every answer is a successful envelope (the fault scenarios are in test/control/faults.test.ts). */
const SCENARIOS = [
  'default',
  'empty-ad-config',
  'gallery',
  'non-gallery',
  'plugin-upgrade',
  'corrupt-plugin',
  'no-recommendations',
  'i18n-stress',
  'settings-twice',
] as const;
const FAULT_SCENARIOS = ['server-error', 'slow-network', 'flaky', 'connection-reset'];
let server: CliProcess;

beforeAll(async () => {
  // One server; each scenario through its base-URL prefix, as two devices on one server would.
  server = await startCli(['serve', '--port', '0', '--no-watch']);
});

afterAll(async () => {
  await server.stop();
});

it('covers every shipped scenario', async () => {
  const { scenarios } = await (await fetch(`${server.url}/__mockvideo/scenarios`)).json();
  expect(scenarios.map((s: { name: string }) => s.name).sort()).toEqual([...SCENARIOS, ...FAULT_SCENARIOS].sort());
});

/** GETs an operation as the client sends it; returns the raw text and the parsed envelope. */
async function get(scenario: string, operation: OperationName, extra: { is_from_gallery?: 'true' | 'false' } = {}) {
  const response = await fetch(`${server.url}/scenarios/${scenario}${clientPath(operation, extra)}`);
  const text = await response.text();
  return { response, text, body: JSON.parse(text) as { data: any; msg: string; result: number } };
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe.each(SCENARIOS)('scenario %s', (scenario) => {
  const requests: Array<[OperationName, { is_from_gallery?: 'true' | 'false' }]> = [
    ...OPERATION_NAMES.map((op) => [op, {}] as [OperationName, object]),
    ['localplay/diversion', { is_from_gallery: 'false' }],
  ];
  it.each(requests)('answers %s %o with the envelope and data that keep the contract', async (operation, extra) => {
    const { response, text, body } = await get(scenario, operation, extra);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-mockvideo-scenario')).toBe(scenario);
    expect(body.msg).toBe('OK');
    expect(body.result).toBe(1);
    const parsed = envelopeSchema(OPERATIONS[operation].dataSchema).safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // Every & inside a string is written as \u0026, as the real service does.
    expect(text).not.toContain('&');
    const ampersands = strings(body.data).join('').split('&').length - 1;
    expect(text.split('\\u0026').length - 1).toBe(ampersands);
  });
});

describe('scenario promises', () => {
  it('default: providers with apk_url and with cp_link, both plugin types, titles in several scripts, a non-empty ad config', async () => {
    const cp = (await get('default', 'meta/cp')).body.data as Array<{ apk_url: string; cp_link: string }>;
    expect(cp.some((p) => p.apk_url !== '' && p.cp_link === '')).toBe(true);
    expect(cp.some((p) => p.cp_link !== '' && p.apk_url === '')).toBe(true);
    const plugins = (await get('default', 'meta/plugin')).body.data as Array<{ type: string }>;
    expect(new Set(plugins.map((p) => p.type))).toEqual(new Set(['player_plugin', 'app_apk']));
    const titles = ((await get('default', 'localplay/recomm')).body.data as Array<{ title: string }>)
      .map((i) => i.title)
      .join(' ');
    for (const script of [
      /[A-Za-z]/,
      /\p{Script=Devanagari}/u,
      /\p{Script=Arabic}/u,
      /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Hangul}/u,
      /\p{Extended_Pictographic}/u,
    ]) {
      expect(titles).toMatch(script);
    }
    expect(Object.keys((await get('default', 'ad_config')).body.data).length).toBeGreaterThan(0);
  });

  it('default: the diversion answers both values of is_from_gallery, with different items', async () => {
    const gallery = (await get('default', 'localplay/diversion', { is_from_gallery: 'true' })).body.data;
    const other = (await get('default', 'localplay/diversion', { is_from_gallery: 'false' })).body.data;
    for (const set of [gallery, other])
      for (const key of ['end', 'exit', 'suspend']) expect(set[key].length).toBeGreaterThan(0);
    const ids = (set: any) => set.end.map((i: { id: string }) => i.id).join();
    expect(ids(gallery)).not.toBe(ids(other));
  });

  it('empty-ad-config: ad_config data is {}', async () => {
    expect((await get('empty-ad-config', 'ad_config')).text).toBe('{"data":{},"msg":"OK","result":1}');
  });

  it.each([
    ['gallery', 'true', 'false'],
    ['non-gallery', 'false', 'true'],
  ] as const)('%s: items only when is_from_gallery=%s', async (scenario, full, empty) => {
    const withItems = (await get(scenario, 'localplay/diversion', { is_from_gallery: full })).body.data;
    const without = (await get(scenario, 'localplay/diversion', { is_from_gallery: empty })).body.data;
    for (const key of ['end', 'exit', 'suspend']) {
      expect(withItems[key].length).toBeGreaterThan(0);
      expect(without[key]).toEqual([]);
    }
  });

  it('plugin-upgrade: a plugin of default with a higher version, its own checksum and an upgrade link naming the new version', async () => {
    const before = (await get('default', 'meta/plugin')).body.data as any[];
    const after = (await get('plugin-upgrade', 'meta/plugin')).body.data as any[];
    const upgraded = after.find((p) => before.some((b) => b.id === p.id && p.version > b.version));
    expect(upgraded).toBeDefined();
    const old = before.find((b) => b.id === upgraded.id);
    expect(upgraded.version_name).not.toBe(old.version_name);
    expect(upgraded.updated_at).toBeGreaterThan(old.updated_at);
    expect(upgraded.md5).not.toBe(old.md5);
    expect(upgraded.url).not.toBe(old.url);
    expect(upgraded.params.signature).not.toBe(old.params.signature);
    const link = Object.entries(upgraded.market_sign).find(([k]) => /^ext_.+_external_url$/.test(k))![1] as string;
    expect(new URL(link).searchParams.get('uri')).toMatch(
      new RegExp(`://player-plugin/${upgraded.id}/${upgraded.version}$`),
    );
  });

  it('no-recommendations: recomm is [] and every diversion array is empty', async () => {
    expect((await get('no-recommendations', 'localplay/recomm')).body.data).toEqual([]);
    for (const flag of ['true', 'false'] as const) {
      expect((await get('no-recommendations', 'localplay/diversion', { is_from_gallery: flag })).body.data).toEqual({
        end: [],
        exit: [],
        suspend: [],
      });
    }
  });

  it('i18n-stress: very long titles, right-to-left text, combining marks, emoji sequences and empty logos', async () => {
    const items = (await get('i18n-stress', 'localplay/recomm')).body.data as Array<{
      title: string;
      top_left_logo: string;
      top_right_logo: string;
    }>;
    const titles = items.map((i) => i.title);
    expect(Math.max(...titles.map((t) => t.length))).toBeGreaterThan(200);
    expect(titles.join('')).toMatch(/\p{Script=Hebrew}|\p{Script=Arabic}/u);
    expect(titles.join('')).toMatch(/\p{M}/u);
    expect(titles.join('')).toContain('\u200D');
    expect(items.some((i) => i.top_left_logo === '' && i.top_right_logo === '')).toBe(true);
  });

  it('settings-twice: the second call answers other settings, and the second repeats', async () => {
    // A fresh server: the per-operation checks above have already used this scenario's sequence.
    const fresh = await startCli(['serve', '--scenario', 'settings-twice', '--port', '0']);
    try {
      const text = async () => (await fetch(`${fresh.url}${clientPath('meta/setting')}`)).text();
      const [first, second, third] = [await text(), await text(), await text()];
      expect(second).not.toBe(first);
      expect(third).toBe(second);
    } finally {
      await fresh.stop();
    }
  });

  it('prints one log line per request: operation, scenario, status, milliseconds', async () => {
    await get('gallery', 'meta/cp');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.stdout()).toMatch(/^GET meta\/cp {2}gallery {2}200 {2}\d+\.\d ms$/m);
  });
});
