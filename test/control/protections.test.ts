// Protections of issue #9 that no other test caught when they were removed one at a time (each test
// here failed with its protection taken out): the loopback/token guard of admin changes as the real
// server applies it, the bound of delay ranges and `times` over HTTP, scenario prefixes and names
// that try to leave the catalog (meta/upgrade included), dashboard assets outside the allow-list, a
// chunked body on a GET, and the bounded grace period of a single SIGTERM.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { minimalScenario } from '../support/minimal-scenario.js';

interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The local address to connect from (a non-loopback address of this machine makes the request come from "another host"). */
  localAddress?: string;
  /** Write the body in chunks (Transfer-Encoding: chunked) instead of with a Content-Length. */
  chunked?: boolean;
}

/** One request to 127.0.0.1 with exactly these headers; never follows anything. */
function raw(
  base: string,
  path: string,
  options: RawOptions = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined && !options.chunked)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request(
      `${base}${path}`,
      {
        method: options.method ?? 'GET',
        headers,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${path} within 10 s`)));
    req.on('error', reject);
    if (options.body !== undefined && options.chunked) {
      req.write(options.body.slice(0, 3));
      req.end(options.body.slice(3));
    } else req.end(options.body);
  });
}

const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

/** A non-loopback IPv4 address of this machine: connecting from it to 127.0.0.1 is a request from "another host". */
const otherHostAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info !== undefined && info.family === 'IPv4' && !info.internal)?.address;

describe('admin changes from another host, through the real server', () => {
  let server: CliProcess;
  let withToken: CliProcess;
  beforeAll(async () => {
    [server, withToken] = await Promise.all([
      startCli(['serve', '--port', '0', '--no-watch']),
      startCli(['serve', '--port', '0', '--no-watch', '--admin-token', 's3cret-admin-token']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server.stop(), withToken.stop()]);
  });

  it.skipIf(!otherHostAddress)(
    'are refused without --admin-token, while reads from there and changes from loopback pass',
    async () => {
      const from = { localAddress: otherHostAddress! };
      expect((await raw(server.url, '/__mockvideo/health', from)).status).toBe(200);
      const put = await raw(server.url, '/__mockvideo/scenario', {
        method: 'PUT',
        ...json({ name: 'gallery' }),
        ...from,
      });
      expect(put.status).toBe(403);
      expect(JSON.parse(put.body).error).toMatch(/only accepted from this machine/);
      expect(
        (await raw(server.url, '/__mockvideo/faults', { method: 'POST', ...json({ kind: 'reset' }), ...from })).status,
      ).toBe(403);
      expect((await raw(server.url, '/__mockvideo/requests', { method: 'DELETE', ...from })).status).toBe(403);
      expect(JSON.parse((await raw(server.url, '/__mockvideo/scenario')).body).name).toBe('default');
      expect(JSON.parse((await raw(server.url, '/__mockvideo/faults')).body).faults).toEqual([]);
      // The same change from loopback is accepted: the refusal above was about where it came from.
      expect(
        (await raw(server.url, '/__mockvideo/scenario', { method: 'PUT', ...json({ name: 'default' }) })).status,
      ).toBe(200);
    },
  );

  it.skipIf(!otherHostAddress)(
    'with --admin-token, are accepted from another host only with that bearer token',
    async () => {
      const from = { localAddress: otherHostAddress! };
      const put = (authorization?: string) =>
        raw(withToken.url, '/__mockvideo/scenario', {
          method: 'PUT',
          ...from,
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: JSON.stringify({ name: 'gallery' }),
        });
      expect((await put()).status).toBe(403);
      expect((await put('Bearer wrong-token')).status).toBe(403);
      expect((await put('s3cret-admin-token')).status).toBe(403);
      expect(JSON.parse((await raw(withToken.url, '/__mockvideo/scenario')).body).name).toBe('default');
      expect((await put('Bearer s3cret-admin-token')).status).toBe(200);
      expect(JSON.parse((await raw(withToken.url, '/__mockvideo/scenario')).body).name).toBe('gallery');
    },
  );
});

describe('client abuse of the admin API and the operations', () => {
  let server: CliProcess;
  let root: string;
  beforeAll(async () => {
    // scenarios/ holds one scenario; next to it, outside the folder, a valid scenario file with a marker.
    root = mkdtempSync(join(tmpdir(), 'mockvideo-protections-'));
    mkdirSync(join(root, 'scenarios'));
    writeFileSync(join(root, 'scenarios', 'mine.json'), JSON.stringify(minimalScenario()));
    const outside = minimalScenario() as { description: string; operations: Record<string, unknown> };
    outside.description = 'OUTSIDE-MARKER';
    outside.operations['meta/cp'] = {
      data: [
        {
          id: 'cp1',
          name: 'OUTSIDE-MARKER',
          apk_url: '',
          app_icon: '',
          top_right_logo: '',
          cp_link: 'mv://com.example.cp1?from=player',
        },
      ],
    };
    writeFileSync(join(root, 'secret.json'), JSON.stringify(outside));
    server = await startCli(['serve', '--port', '0', '--no-watch', '--scenarios-dir', join(root, 'scenarios')]);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it.each<[string, unknown, RegExp]>([
    ['a delay range past 120 s', { kind: 'delay', ms: [0, 120_001] }, /"ms/],
    ['a delay range of a billion ms', { kind: 'delay', ms: [1_000_000_000, 1_000_000_000] }, /"ms/],
    ['a single delay past 120 s', { kind: 'delay', ms: 120_001 }, /"ms/],
    ['times past 100,000', { kind: 'reset', times: 100_001 }, /"times" must be an integer from 1 to 100000/],
    ['times of 1e12', { kind: 'reset', times: 1e12 }, /"times"/],
  ])('refuses %s with 400 and plans nothing', async (_what, fault, message) => {
    try {
      const response = await raw(server.url, '/__mockvideo/faults', { method: 'POST', ...json(fault) });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).error).toMatch(message);
      expect(JSON.parse((await raw(server.url, '/__mockvideo/faults')).body).faults).toEqual([]);
    } finally {
      await raw(server.url, '/__mockvideo/faults', { method: 'DELETE' });
    }
  });

  it('accepts the bounds themselves (a 0–120 s delay range, times 100,000)', async () => {
    expect(
      (
        await raw(server.url, '/__mockvideo/faults', {
          method: 'POST',
          ...json({ operation: 'ad_config', kind: 'delay', ms: [0, 120_000], times: 100_000 }),
        })
      ).status,
    ).toBe(201);
    expect((await raw(server.url, '/__mockvideo/faults', { method: 'DELETE' })).status).toBe(200);
  });

  const escapes = [
    '..%2Fsecret',
    '%2e%2e%2fsecret',
    '%2E%2E%2Fsecret',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%5csecret',
  ];

  it.each(escapes)(
    'answers the prefix /scenarios/%s with 404 naming the known scenarios, for the operations and meta/upgrade',
    async (prefix) => {
      for (const path of [
        clientPath('meta/cp'),
        `/api/g1/meta/upgrade?uri=${encodeURIComponent('mv://player-plugin/cp1/1')}`,
      ]) {
        const response = await raw(server.url, `/scenarios/${prefix}${path}`);
        expect([path, response.status]).toEqual([path, 404]);
        expect(JSON.parse(response.body).error).toMatch(/Unknown scenario/);
        expect(response.body).toContain('mine');
        expect(response.body).not.toContain('OUTSIDE-MARKER');
      }
    },
  );

  it.each(['../secret', '..\\secret', '/etc/passwd', '../../../../etc/passwd'])(
    'answers the scenario header %j with 404, and PUT /scenario refuses it',
    async (name) => {
      for (const path of [
        clientPath('meta/cp'),
        `/api/g1/meta/upgrade?uri=${encodeURIComponent('mv://player-plugin/cp1/1')}`,
      ]) {
        const response = await raw(server.url, path, { headers: { 'x-mockvideo-scenario': name } });
        expect([path, response.status]).toEqual([path, 404]);
        expect(response.body).not.toContain('OUTSIDE-MARKER');
      }
      const put = await raw(server.url, '/__mockvideo/scenario', { method: 'PUT', ...json({ name }) });
      expect(put.status).toBe(404);
      expect(put.body).not.toContain('OUTSIDE-MARKER');
      const listed = await raw(server.url, '/__mockvideo/scenarios');
      expect(listed.body).toContain('"mine"');
      expect(listed.body).not.toContain('OUTSIDE-MARKER');
    },
  );

  it.each([
    '..%2F..%2Fpackage.json',
    '..%2F..%2F..%2Fpackage.json',
    '%2e%2e%2f%2e%2e%2fpackage.json',
    '..%2Fdashboard%2Findex.html',
    'constructor',
    '__proto__',
  ])('serves no dashboard asset outside its list: /__mockvideo/assets/%s is a 404', async (name) => {
    const response = await raw(server.url, `/__mockvideo/assets/${name}`);
    expect(response.status).toBe(404);
    expect(response.body).not.toMatch(/"name": "mockvideo"|<html/);
  });

  it('finds a chunked request body on a GET (body-on-get) and still answers it', async () => {
    await raw(server.url, '/__mockvideo/requests', { method: 'DELETE' });
    const response = await raw(server.url, clientPath('ad_config'), {
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      body: 'unexpected body',
      chunked: true,
    });
    expect(response.status).toBe(200);
    const { requests } = JSON.parse((await raw(server.url, '/__mockvideo/requests')).body) as {
      requests: Array<{ findings: Array<{ rule: string }> }>;
    };
    expect(requests.map((r) => r.findings.map((f) => f.rule))).toEqual([['body-on-get']]);
  });
});

describe('shutdown', () => {
  it('one SIGTERM with a request that never ends still exits 0, once the bounded grace period is over', async () => {
    const server = await startCli(['serve', '--port', '0', '--no-watch', '--fault', 'meta/setting=hang']);
    const hanging = fetch(`${server.url}${clientPath('meta/setting')}`).then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const exited = server.stop('SIGTERM');
    const outcome = await Promise.race([
      exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 8_000)),
    ]);
    if (outcome === 'still running') server.child.kill('SIGKILL');
    expect(outcome).toBe(0);
    // The grace period is 2 s: the hanging request is cut off then, not before and not never.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(await hanging).toBe('closed');
  });
});
