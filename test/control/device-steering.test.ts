// Per-device steering (issue 41, item 1), over HTTP with the real CLI, on both engines: two phones
// on one server get two scenarios by `_sdevid` with no URL prefix, set over the admin API; a third
// follows the server's; the precedence header > `/scenarios/NAME` prefix > device > server; a
// device's switch starts its own sequences again and no other's; `GET /devices` says each device's
// scenario; journal entries name the scenario that answered.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperationName } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

/** Made-up `_sdevid`s (never real identifiers). */
const A = 'a1'.repeat(32);
const B = '5e'.repeat(32);
const C = 'c3'.repeat(32);

/** The client path of `operation` as device `sdevid` sends it, under `prefix` (e.g. `/scenarios/gallery`). */
const pathOf = (sdevid: string, operation: OperationName, prefix = '') =>
  `${prefix}${clientPath(operation).replace(/_sdevid=[^&]*/, `_sdevid=${sdevid}`)}`;

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
});

interface DeviceRow {
  sdevid: string;
  scenario: string | null;
  steered: boolean;
  aimedFaults: Array<{ id: number; spec: string }>;
  requests: number;
  firstSeen: string | null;
}

describe.each(['routes', 'msw'] as const)('per-device scenarios, engine %s', (engine) => {
  let server: CliProcess;
  const call = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
  const steer = (sdevid: string, body: unknown) =>
    call(`/__mockvideo/devices/${encodeURIComponent(sdevid)}/scenario`, json('PUT', body));
  /** The scenario that answered a request of `sdevid` (the header the one response step renders from the plan). */
  const answeredBy = async (sdevid: string, operation: OperationName = 'meta/cp', init?: RequestInit, prefix = '') => {
    const response = await call(pathOf(sdevid, operation, prefix), init);
    await response.arrayBuffer();
    return response.headers.get('x-mockvideo-scenario');
  };
  const devices = async () => ((await (await call('/__mockvideo/devices')).json()) as { devices: DeviceRow[] }).devices;

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--engine', engine]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives two devices two scenarios by _sdevid, without a prefix; a third follows the server', async () => {
    const a = await steer(A, { name: 'gallery' });
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual({ device: A, scenario: 'gallery', steered: true, aimedFaults: [] });
    expect((await steer(B, { name: 'non-gallery' })).status).toBe(200);

    // The diversion of gallery playback: gallery has items, non-gallery empty arrays.
    const diversion = async (sdevid: string) => {
      const response = await call(pathOf(sdevid, 'localplay/diversion'));
      return { scenario: response.headers.get('x-mockvideo-scenario'), body: await response.text() };
    };
    const [ofA, ofB, ofC] = [await diversion(A), await diversion(B), await diversion(C)];
    expect(ofA.scenario).toBe('gallery');
    expect(ofB.scenario).toBe('non-gallery');
    expect(ofC.scenario).toBe('default');
    expect(ofA.body).not.toBe(ofB.body);

    // The journal says which scenario answered each.
    const { requests } = (await (await call('/__mockvideo/requests?operation=localplay/diversion')).json()) as {
      requests: Array<{ scenario: string; query: { _sdevid: string[] } }>;
    };
    expect(requests.map((r) => [r.query._sdevid[0], r.scenario])).toEqual([
      [A, 'gallery'],
      [B, 'non-gallery'],
      [C, 'default'],
    ]);
  });

  it("prints one line for each device switched, as for the server's scenario", async () => {
    // The terminal lines come on the server's stdout, which may reach the test after the answers.
    await vi.waitFor(() => {
      expect(server.stdout()).toContain(
        `admin: device a1a1a1a1a1a1…: scenario "gallery" now answers its requests (was the server's "default")\n`,
      );
      expect(server.stdout()).toContain(
        `admin: device 5e5e5e5e5e5e…: scenario "non-gallery" now answers its requests (was the server's "default")\n`,
      );
    });
  });

  it("says each device's scenario in GET /devices, and whether it is its own", async () => {
    const rows = await devices();
    const row = (sdevid: string) => rows.find((d) => d.sdevid === sdevid)!;
    expect(row(A)).toMatchObject({ scenario: 'gallery', steered: true, aimedFaults: [] });
    expect(row(B)).toMatchObject({ scenario: 'non-gallery', steered: true });
    expect(row(C)).toMatchObject({ scenario: 'default', steered: false });
    const one = await (await call(`/__mockvideo/devices/${B}/scenario`)).json();
    expect(one).toEqual({ device: B, scenario: 'non-gallery', steered: true, aimedFaults: [] });
  });

  it('precedence: the header, then the /scenarios/NAME prefix, then the device, then the server', async () => {
    expect(await answeredBy(A)).toBe('gallery');
    expect(await answeredBy(A, 'meta/cp', undefined, '/scenarios/i18n-stress')).toBe('i18n-stress');
    const header = { headers: { 'x-mockvideo-scenario': 'empty-ad-config' } };
    expect(await answeredBy(A, 'meta/cp', header)).toBe('empty-ad-config');
    // The header wins over the prefix, as it did before devices had scenarios.
    expect(await answeredBy(A, 'meta/cp', header, '/scenarios/i18n-stress')).toBe('empty-ad-config');
    // meta/upgrade follows the same order.
    const upgrade = await call(`/api/g1/meta/upgrade?_sdevid=${A}`);
    await upgrade.arrayBuffer();
    expect(upgrade.headers.get('x-mockvideo-scenario')).toBe('gallery');
  });

  it("switching the server's scenario moves only the devices that follow it", async () => {
    expect((await call('/__mockvideo/scenario', json('PUT', { name: 'no-recommendations' }))).status).toBe(200);
    expect(await answeredBy(A)).toBe('gallery');
    expect(await answeredBy(B)).toBe('non-gallery');
    expect(await answeredBy(C)).toBe('no-recommendations');
    await call('/__mockvideo/scenario', json('PUT', { name: 'default' }));
  });

  it("DELETE gives a device back to the server's scenario, the others keep theirs", async () => {
    const deleted = await call(`/__mockvideo/devices/${A}/scenario`, json('DELETE'));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ device: A, scenario: 'default', steered: false, aimedFaults: [] });
    await vi.waitFor(() =>
      expect(server.stdout()).toContain(
        `admin: device a1a1a1a1a1a1…: follows the server's scenario "default" again (was "gallery")\n`,
      ),
    );
    expect(await answeredBy(A)).toBe('default');
    expect(await answeredBy(B)).toBe('non-gallery');
  });

  it('starts the sequences of the device switched, and of no other device', async () => {
    const step = async (sdevid: string) => {
      const response = await call(pathOf(sdevid, 'meta/setting'));
      await response.arrayBuffer();
      return `${response.headers.get('x-mockvideo-scenario')} ${response.headers.get('x-mockvideo-step')}`;
    };
    await steer(A, { name: 'settings-twice' });
    await steer(C, { name: 'settings-twice' });
    expect([await step(A), await step(C)]).toEqual(['settings-twice 1/2', 'settings-twice 1/2']);
    await steer(A, { name: 'settings-twice' });
    expect(await step(A)).toBe('settings-twice 1/2');
    expect(await step(C)).toBe('settings-twice 2/2');
    await call(`/__mockvideo/devices/${C}/scenario`, json('DELETE'));
  });

  it('answers an unknown scenario with 404, the known names and "Did you mean"', async () => {
    const unknown = await steer(A, { name: 'galery' });
    expect(unknown.status).toBe(404);
    const body = (await unknown.json()) as { error: string; scenarios: string[] };
    expect(body.error).toBe('Unknown scenario "galery". Did you mean "gallery"?');
    expect(body.scenarios).toContain('gallery');
    // Nothing changed for the device.
    expect(await answeredBy(A)).toBe('settings-twice');
    const noName = await steer(A, { scenario: 'gallery' });
    expect(noName.status).toBe(400);
    expect((await noName.json()).error).toBe('Send {"name": "<scenario>"}.');
    const long = await steer('f'.repeat(600), { name: 'gallery' });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toMatch(
      /^A device is named by the _sdevid of one device .* 1 to 512 characters, no control character; got 600 characters starting "ffffffffffff"\.$/,
    );
  });

  it('steers a device before its first request, and lists it', async () => {
    const later = 'd4'.repeat(32);
    await steer(later, { name: 'i18n-stress' });
    expect((await devices()).find((d) => d.sdevid === later)).toMatchObject({
      scenario: 'i18n-stress',
      steered: true,
      requests: 0,
      firstSeen: null,
    });
    expect(await answeredBy(later)).toBe('i18n-stress');
  });

  it('steers a device without _sdevid by the name clientOf gives it (anoyid:…)', async () => {
    const anoyid = '0f1e2d3c-4b5a-4968-8776-655443322110';
    expect((await steer(`anoyid:${anoyid}`, { name: 'gallery' })).status).toBe(200);
    const path = clientPath('meta/cp')
      .replace(/_sdevid=[^&]*&?/, '')
      .replace(/_anoyid=[^&]*/, `_anoyid=${anoyid}`);
    const response = await call(path);
    await response.arrayBuffer();
    expect(response.headers.get('x-mockvideo-scenario')).toBe('gallery');
  });
});

describe('faults aimed at one device', () => {
  let server: CliProcess;
  const call = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
  const status = async (sdevid: string, operation: OperationName = 'meta/cp') => {
    const response = await call(pathOf(sdevid, operation)).catch(() => undefined);
    if (!response) return 'reset';
    await response.arrayBuffer();
    return response.status;
  };

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--fault', `meta/plugin=reset@${A}`]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('--fault OPERATION=KIND@SDEVID: only that device gets it; the start line and the list say so', async () => {
    await vi.waitFor(() => expect(server.stdout()).toContain(`  faults: meta/plugin=reset@${A} (listed at `));
    expect(await status(A, 'meta/plugin')).toBe('reset');
    expect(await status(B, 'meta/plugin')).toBe(200);
    const { faults } = (await (await call('/__mockvideo/faults')).json()) as {
      faults: Array<{ spec: string; device?: string; fired: number }>;
    };
    expect(faults).toEqual([expect.objectContaining({ spec: `meta/plugin=reset@${A}`, device: A, fired: 1 })]);
  });

  it('"device" in POST /faults: reaches only that device, and GET /devices lists it with the device', async () => {
    const planned = await call(
      '/__mockvideo/faults',
      json('POST', { operation: 'meta/cp', kind: 'status', status: 503, times: 2, device: B }),
    );
    expect(planned.status).toBe(201);
    const fault = (await planned.json()) as { id: number; spec: string; device: string };
    expect(fault).toMatchObject({ spec: `meta/cp=status:503@${B}`, device: B });
    expect([await status(A), await status(C), await status(B), await status(C), await status(B)]).toEqual([
      200, 200, 503, 200, 503,
    ]);
    expect(await status(B)).toBe(200);
    const { devices } = (await (await call('/__mockvideo/devices')).json()) as { devices: DeviceRow[] };
    expect(devices.find((d) => d.sdevid === B)!.aimedFaults.map((f) => f.spec)).toEqual([`meta/cp=status:503@${B}`]);
    expect(devices.find((d) => d.sdevid === A)!.aimedFaults.map((f) => f.spec)).toEqual([`meta/plugin=reset@${A}`]);
    expect(devices.find((d) => d.sdevid === C)!.aimedFaults).toEqual([]);
  });

  it('precedence: a fault aimed at the device wins over one for its operation, for every device', async () => {
    await call('/__mockvideo/faults', json('POST', { operation: 'meta/setting', kind: 'status', status: 502 }));
    await call('/__mockvideo/faults', json('POST', { kind: 'status', status: 504, device: C }));
    expect([await status(A, 'meta/setting'), await status(C, 'meta/setting'), await status(C)]).toEqual([
      502, 504, 504,
    ]);
  });

  it('refuses a device name that is not one', async () => {
    for (const device of ['', 'ab\u001b[2J', 'f'.repeat(513)]) {
      const bad = await call('/__mockvideo/faults', json('POST', { kind: 'reset', device }));
      expect(bad.status).toBe(400);
      expect((await bad.json()).error).toMatch(/^"device" must be the _sdevid of one device .* no control character/);
    }
  });
});
