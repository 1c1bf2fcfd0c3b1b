import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { rawGet, stringsAt } from './support.js';

const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios', import.meta.url));
/**
 * Every shipped scenario, by its file in scenarios/, except those that inject faults (resets,
 * 5xx, delays): they extend another scenario for their data and are checked through it.
 */
const SCENARIOS = readdirSync(SCENARIOS_DIR)
  .filter(
    (f) =>
      f.endsWith('.json') &&
      !f.endsWith('.schema.json') &&
      !readFileSync(join(SCENARIOS_DIR, f), 'utf8').includes('"fault'),
  )
  .map((f) => f.slice(0, -'.json'.length));
const IMAGE_FIELDS = ['image_url', 'app_icon', 'top_left_logo', 'top_right_logo'] as const;

let cli: CliProcess;
beforeAll(async () => {
  cli = await startCli(['serve', '--port', '0']);
});
afterAll(async () => {
  await cli.stop();
});

/** The `data` of every answer of `scenario` (both values of is_from_gallery), picked with the /scenarios/<name> prefix. */
async function allData(scenario: string): Promise<unknown[]> {
  const requests: Array<[OperationName, { is_from_gallery?: 'true' | 'false' }]> = [
    ...OPERATION_NAMES.map((op) => [op, {}] as [OperationName, object]),
    ['localplay/diversion', { is_from_gallery: 'false' }],
  ];
  const out: unknown[] = [];
  for (const [operation, extra] of requests) {
    const response = await fetch(`${cli.url}/scenarios/${scenario}${clientPath(operation, extra)}`);
    if (response.status === 200) out.push(((await response.json()) as { data: unknown }).data);
  }
  return out;
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

it('checks the scenarios that carry the data, corrupt-plugin among them', () => {
  expect(SCENARIOS).toEqual(expect.arrayContaining(['default', 'i18n-stress', 'plugin-upgrade', 'corrupt-plugin']));
});

describe.each(SCENARIOS)('scenario %s, offline', (scenario) => {
  it('every image URL loads from mockvideo and decodes as an image of its Content-Type', async () => {
    const urls = [...new Set(stringsAt(await allData(scenario), IMAGE_FIELDS).filter((u) => u !== ''))];
    for (const url of urls) {
      expect(url.startsWith(`${cli.url}/`), url).toBe(true);
      const { status, headers, body } = await rawGet(url);
      expect(status, url).toBe(200);
      const type = headers['content-type'];
      expect(type, url).toBe(/\.png$/.test(url) ? 'image/png' : 'image/jpeg');
      const decoded = type === 'image/png' ? PNG.sync.read(body) : jpeg.decode(body);
      expect(decoded.width * decoded.height, url).toBeGreaterThan(0);
    }
  });

  it('every plugin url downloads bytes whose MD5 is the entry md5 (and is not, in corrupt-plugin)', async () => {
    const plugins = (await allData(scenario))
      .flatMap((d) => (Array.isArray(d) ? d : []))
      .filter((e): e is { id: string; url: string; md5: string } => typeof e?.md5 === 'string');
    expect(plugins.length).toBeGreaterThan(0);
    for (const plugin of plugins) {
      const { status, headers, body } = await rawGet(plugin.url);
      expect(status, plugin.url).toBe(200);
      expect(headers['content-type']).toBe('application/vnd.android.package-archive');
      const corrupt = scenario === 'corrupt-plugin' && plugin.id === 'streamly';
      if (corrupt) expect(md5(body), plugin.url).not.toBe(plugin.md5);
      else expect(md5(body), plugin.url).toBe(plugin.md5);
    }
  });
});

describe('self-contained answers', () => {
  it('corrupt-plugin: the upgraded plugin is the only one whose download fails its checksum', async () => {
    const list = (await (await fetch(`${cli.url}/__mockvideo/plugins`)).json()) as {
      packages: Array<{ declaredMd5: string; servedMd5: string; scenarios: string[] }>;
    };
    const failing = list.packages.filter((p) => p.declaredMd5 !== p.servedMd5);
    expect(failing.map((p) => p.scenarios)).toEqual([['corrupt-plugin']]);
  });

  it('{origin} becomes the origin the client used (the Host header)', async () => {
    const { body } = await rawGet(`${cli.url}${clientPath('meta/cp')}`, { host: 'devices.test:1234' });
    const text = body.toString();
    expect(text).not.toContain('{origin}');
    const urls = stringsAt(JSON.parse(text), ['app_icon', 'apk_url']).filter((u) => u !== '');
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^http:\/\/devices\.test:1234\/__mockvideo\//);
  });

  it('a content provider apk_url downloads a package', async () => {
    const urls = stringsAt(await allData('default'), ['apk_url']).filter((u) => u !== '');
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      const { status, body } = await rawGet(url);
      expect(status).toBe(200);
      expect(body.subarray(0, 2).toString()).toBe('PK');
    }
  });

  it('an unknown plugin file is a 404 that lists the files served', async () => {
    const response = await fetch(`${cli.url}/__mockvideo/plugins/0123.apk`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { files: string[] }).files.length).toBeGreaterThan(0);
  });
});

describe('meta/upgrade (where ext_<market>_external_url points)', () => {
  it('answers the envelope: {} when the plugin is up to date, the newer entry otherwise', async () => {
    const plugin = (
      (await (await fetch(`${cli.url}${clientPath('meta/plugin')}`)).json()) as {
        data: Array<{ id: string; version: number; market_sign: Record<string, string> }>;
      }
    ).data[0]!;
    const link = Object.entries(plugin.market_sign).find(([k]) => /^ext_.+_external_url$/.test(k))![1];
    expect(link.startsWith(`${cli.url}/api/g1/meta/upgrade?`)).toBe(true);
    const upToDate = await fetch(link);
    expect(upToDate.status).toBe(200);
    expect(await upToDate.json()).toEqual({ data: {}, msg: 'OK', result: 1 });
    const older = new URL(link);
    older.searchParams.set('uri', `videoplayer://player-plugin/${plugin.id}/${plugin.version - 1}`);
    const upgrade = (await (await fetch(older)).json()) as {
      data: { id: string; version: number; url: string };
      result: number;
    };
    expect(upgrade.data).toMatchObject({ id: plugin.id, version: plugin.version });
    expect(upgrade.data.url.startsWith(cli.url)).toBe(true);
  });

  it('plugin-upgrade: a client on the default version is offered version 13', async () => {
    const uri = encodeURIComponent('videoplayer://player-plugin/streamly/12');
    const body = (await (
      await fetch(`${cli.url}/scenarios/plugin-upgrade/api/g1/meta/upgrade?uri=${uri}&_region=IN`)
    ).json()) as { data: { version: number } };
    expect(body.data.version).toBe(13);
  });

  it('needs a uri; is not listed among the seed operations', async () => {
    const bad = await fetch(`${cli.url}/api/g1/meta/upgrade?_region=IN`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/uri/);
    const unknown = (await (await fetch(`${cli.url}/api/g1/nothing`)).json()) as { operations: string[] };
    expect(unknown.operations.join()).not.toContain('meta/upgrade');
  });
});
