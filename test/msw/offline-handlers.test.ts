// With only `createHandlers` from the package and msw, every URL a shipped scenario hands the
// client (images, plugin and provider packages, upgrade links) is answered as the server answers
// it, and nothing goes to the network under onUnhandledRequest: 'error'.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { setupServer } from 'msw/node';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import { createHandlers, isScenarioName, type ScenarioName } from '../../src/index.js';
import { clientPath } from '../support/client.js';
import { stringsAt } from '../devices/support.js';

const ORIGIN = 'https://device.test';
const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios', import.meta.url));
/** Every shipped scenario without injected faults (those extend another one for their data). */
const SCENARIOS = readdirSync(SCENARIOS_DIR)
  .filter(
    (f) =>
      f.endsWith('.json') &&
      !f.endsWith('.schema.json') &&
      !readFileSync(join(SCENARIOS_DIR, f), 'utf8').includes('"fault'),
  )
  .map((f) => f.slice(0, -'.json'.length))
  .filter((name): name is ScenarioName => isScenarioName(name));
const URL_FIELDS = ['image_url', 'app_icon', 'top_left_logo', 'top_right_logo', 'apk_url', 'url'] as const;

const server = setupServer();
const unhandled: string[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The `data` of every answer of the scenario (both values of is_from_gallery), with their findings headers. */
async function allData(): Promise<{ data: unknown[]; findings: Array<string | null> }> {
  const requests: Array<[OperationName, { is_from_gallery?: 'true' | 'false' }]> = [
    ...OPERATION_NAMES.map((op) => [op, {}] as [OperationName, object]),
    ['localplay/diversion', { is_from_gallery: 'false' }],
  ];
  const data: unknown[] = [];
  const findings: Array<string | null> = [];
  for (const [operation, extra] of requests) {
    const response = await fetch(`${ORIGIN}${clientPath(operation, extra)}`);
    findings.push(response.headers.get('x-mockvideo-findings'));
    if (response.status === 200) data.push(((await response.json()) as { data: unknown }).data);
  }
  return { data, findings };
}

const md5 = (bytes: ArrayBuffer) => createHash('md5').update(Buffer.from(bytes)).digest('hex');

describe.each(SCENARIOS)('createHandlers({ scenario: %s }) offline', (scenario) => {
  it('answers every image, package and upgrade URL of the scenario, plugin MD5s matching (but in corrupt-plugin), findings headers on', async () => {
    server.use(...createHandlers({ scenario }));
    const { data, findings } = await allData();
    expect(findings.every((count) => count === '0')).toBe(true);
    const urls = [...new Set(stringsAt(data, URL_FIELDS).filter((u) => u.startsWith(`${ORIGIN}/`)))];
    const upgrades = [
      ...new Set(JSON.stringify(data).match(/https:\/\/device\.test\/api\/g1\/meta\/upgrade\?[^"\\]+/g) ?? []),
    ].map((u) => u.replace(/\\u0026/g, '&'));
    expect(urls.some((u) => /\.(png|jpe?g)$/.test(u))).toBe(true);
    for (const url of [...urls, ...upgrades]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      const type = response.headers.get('content-type');
      const bytes = await response.arrayBuffer();
      if (type === 'image/png') expect(PNG.sync.read(Buffer.from(bytes)).width, url).toBeGreaterThan(0);
      else if (type === 'image/jpeg') expect(jpeg.decode(Buffer.from(bytes)).width, url).toBeGreaterThan(0);
      else if (url.includes('/meta/upgrade'))
        expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ msg: 'OK', result: 1 });
      else expect(type, url).toMatch(/^application\/(vnd\.android\.package-archive|zip|octet-stream)$/);
    }
    const plugins = data
      .flatMap((d) => (Array.isArray(d) ? d : []))
      .filter((e): e is { id: string; url: string; md5: string } => typeof e?.md5 === 'string');
    expect(plugins.length).toBeGreaterThan(0);
    for (const plugin of plugins) {
      const sum = md5(await (await fetch(plugin.url)).arrayBuffer());
      if (scenario === 'corrupt-plugin' && plugin.id === 'streamly') expect(sum, plugin.url).not.toBe(plugin.md5);
      else expect(sum, plugin.url).toBe(plugin.md5);
    }
    expect(unhandled).toEqual([]);
  });
});

it('checks the scenarios that carry the data, corrupt-plugin and plugin-upgrade among them', () => {
  expect(SCENARIOS).toEqual(expect.arrayContaining(['default', 'plugin-upgrade', 'corrupt-plugin']));
});
