import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0']);
});
afterAll(async () => {
  await server.stop();
});

const admin = (path: string, init?: RequestInit) => fetch(`${server.url}/__mockvideo${path}`, init);
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const clear = () => admin('/requests', { method: 'DELETE' });

describe('live scenario switching', () => {
  afterAll(async () => {
    await admin('/scenario', json('PUT', { name: 'default' }));
  });

  it('PUT /__mockvideo/scenario changes what the next requests get', async () => {
    expect((await (await admin('/scenario')).json()).name).toBe('default');
    const before = await (await fetch(`${server.url}${clientPath('ad_config')}`)).json();
    expect(Object.keys(before.data).length).toBeGreaterThan(0);
    const put = await admin('/scenario', json('PUT', { name: 'empty-ad-config' }));
    expect(put.status).toBe(200);
    const after = await fetch(`${server.url}${clientPath('ad_config')}`);
    expect(after.headers.get('x-mockvideo-scenario')).toBe('empty-ad-config');
    expect((await after.json()).data).toEqual({});
  });

  it('answers 404 with the known names for an unknown scenario', async () => {
    const put = await admin('/scenario', json('PUT', { name: 'nope' }));
    expect(put.status).toBe(404);
    expect((await put.json()).scenarios).toContain('gallery');
  });

  it('suggests the closest name for a misspelled scenario, as the CLI does (issue 43)', async () => {
    const put = await admin('/scenario', json('PUT', { name: 'galery' }));
    expect(put.status).toBe(404);
    const body = await put.json();
    expect(body.error).toBe('Unknown scenario "galery". Did you mean "gallery"?');
    expect(body.scenarios).toContain('gallery');
  });

  it('lists the scenarios and the active one', async () => {
    const body = await (await admin('/scenarios')).json();
    expect(body.scenarios.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['default', 'gallery', 'flaky']),
    );
  });

  it('refuses a mutation without a JSON content type (415)', async () => {
    const put = await admin('/scenario', { method: 'PUT', body: 'name=gallery' });
    expect(put.status).toBe(415);
  });
});

describe('per-client scenarios', () => {
  it('serves two base-URL prefixes from two scenarios at once', async () => {
    const path = clientPath('localplay/diversion', { is_from_gallery: 'true' });
    const [gallery, nonGallery] = await Promise.all([
      fetch(`${server.url}/scenarios/gallery${path}`).then((r) => r.json()),
      fetch(`${server.url}/scenarios/non-gallery${path}`).then((r) => r.json()),
    ]);
    expect(gallery.data.end.length).toBeGreaterThan(0);
    expect(nonGallery.data.end).toEqual([]);
  });

  it('lets a test pick with the x-mockvideo-scenario header', async () => {
    const response = await fetch(`${server.url}${clientPath('localplay/recomm')}`, {
      headers: { 'x-mockvideo-scenario': 'no-recommendations' },
    });
    expect((await response.json()).data).toEqual([]);
  });
});

describe('the journal', () => {
  it('keeps every request with its query (secret redacted), scenario, status, duration and no findings when correct', async () => {
    await clear();
    const response = await fetch(`${server.url}${clientPath('meta/cp')}`);
    expect(response.headers.get('x-mockvideo-findings')).toBe('0');
    const { requests } = await (await admin('/requests')).json();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      id: expect.any(Number),
      operation: 'meta/cp',
      scenario: 'default',
      status: 200,
      findings: [],
      fault: null,
    });
    expect(requests[0].query._st).toEqual(['<SERVICE_TOKEN>']);
    expect(requests[0].query._model).toEqual(['Redmi Note 12 Pro+']);
    expect(requests[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(requests)).not.toContain('PLACEHOLDER-SERVICE-TOKEN');
  });

  it('reports findings for a broken request in the journal and the header, and still answers', async () => {
    await clear();
    const broken = clientPath('localplay/diversion')
      .replace(/^(.*?)\?ref=&/, '$1?')
      .replace('_region=IN', '_region=india');
    const response = await fetch(`${server.url}${broken}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mockvideo-findings')).toBe('2');
    const { requests } = await (await admin('/requests')).json();
    expect(
      requests[0].findings.map((f: { rule: string; parameter: string }) => `${f.parameter}:${f.rule}`).sort(),
    ).toEqual(['_region:format', 'ref:ref-order']);
  });

  it('filters by operation, exports HAR 1.2 filtered by _sdevid, and clears', async () => {
    await clear();
    await fetch(`${server.url}${clientPath('meta/cp')}`);
    await fetch(`${server.url}${clientPath('ad_config').replace(/_sdevid=[0-9a-f]+/, `_sdevid=${'f'.repeat(64)}`)}`);
    expect((await (await admin('/requests?operation=ad_config')).json()).requests).toHaveLength(1);
    const har = await (await admin(`/requests.har?_sdevid=${'f'.repeat(64)}`)).json();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0].request.url).toContain('/api/g1/ad_config');
    expect(har.log.entries[0].response.content.text).toContain('"msg":"OK"');
    expect(JSON.stringify(har)).not.toContain('PLACEHOLDER-SERVICE-TOKEN');
    expect((await (await clear()).json()).cleared).toBe(2);
    expect((await (await admin('/requests')).json()).requests).toEqual([]);
  });
});

describe('verify', () => {
  const startUp = async (device: string, { diversionFlag = true } = {}) => {
    const withDevice = (p: string) => p.replace(/_sdevid=[0-9a-f]+/, `_sdevid=${device}`);
    for (const op of [
      'ad_config',
      'meta/cp',
      'meta/setting',
      'meta/plugin',
      'localplay/diversion',
      'localplay/recomm',
    ] as const) {
      let path = withDevice(clientPath(op));
      if (!diversionFlag) path = path.replace('is_from_gallery=true&', '');
      await fetch(`${server.url}${path}`);
    }
  };

  it('passes a correct start-up, over HTTP and from the CLI (exit 0)', async () => {
    await clear();
    await startUp('1'.repeat(64));
    const report = await (await admin('/verify')).json();
    expect(report).toMatchObject({ ok: true });
    const cli = await runCli(['verify', '--url', server.url]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/✓ start-up-calls-each-operation-once/);
    expect(cli.stdout).toMatch(/PASS\n$/);
  });

  it('fails a wrong one, naming the rule, with status 200 and CLI exit 1', async () => {
    await clear();
    await startUp('2'.repeat(64), { diversionFlag: false });
    await fetch(`${server.url}${clientPath('meta/cp').replace(/_sdevid=[0-9a-f]+/, `_sdevid=${'2'.repeat(64)}`)}`);
    const response = await admin('/verify');
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report.ok).toBe(false);
    expect(report.rules.filter((r: { ok: boolean }) => !r.ok).map((r: { rule: string }) => r.rule)).toEqual(
      expect.arrayContaining(['start-up-calls-each-operation-once', 'diversion-carries-is_from_gallery']),
    );
    const cli = await runCli(['verify', '--url', server.url]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/✗ diversion-carries-is_from_gallery/);
  });

  it('treats a later recommendations-only burst as the recommendation view (gap in seconds)', async () => {
    await clear();
    await startUp('3'.repeat(64));
    await new Promise((r) => setTimeout(r, 1100));
    await fetch(
      `${server.url}${clientPath('localplay/recomm').replace(/_sdevid=[0-9a-f]+/, `_sdevid=${'3'.repeat(64)}`)}`,
    );
    expect((await (await admin('/verify?gap=1')).json()).ok).toBe(true);
  });
});
