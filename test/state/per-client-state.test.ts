import { afterEach, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

const DEVICE_A = 'a'.repeat(64);
const DEVICE_B = 'b'.repeat(64);

let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** The client's path of `operation` as device `device` sends it. */
const pathOf = (operation: Parameters<typeof clientPath>[0], device: string) =>
  clientPath(operation).replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device}`);
/** meta/setting as `device`: its codec_level (3 is the first answer of settings-twice, 4 the second) and step header. */
async function setting(device: string): Promise<[string, string | null]> {
  const response = await fetch(`${server!.url}${pathOf('meta/setting', device)}`);
  return [(await response.json()).data.codec_level, response.headers.get('x-mockvideo-step')];
}
const admin = (path: string, init?: RequestInit) => fetch(`${server!.url}/__mockvideo${path}`, init);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sequences per client (serve --scenario settings-twice)', () => {
  it('two devices interleaving start-ups each get the first then the second answer; the journal says which step', async () => {
    server = await startCli(['serve', '--port', '0', '--scenario', 'settings-twice']);
    expect([
      await setting(DEVICE_A),
      await setting(DEVICE_B),
      await setting(DEVICE_A),
      await setting(DEVICE_B),
      await setting(DEVICE_B),
    ]).toEqual([
      ['3', '1/2'],
      ['3', '1/2'],
      ['4', '2/2'],
      ['4', '2/2'],
      ['4', '2/2'],
    ]);
    const { requests } = await (await admin('/requests?operation=meta/setting')).json();
    expect(
      requests.map((r: { step: string; query: { _sdevid: string[] } }) => `${r.query._sdevid[0]![0]}:${r.step}`),
    ).toEqual(['a:1/2', 'b:1/2', 'a:2/2', 'b:2/2', 'b:2/2']);
  });

  it('a request naming no device (no _sdevid, no _anoyid) is counted for its connection address', async () => {
    server = await startCli(['serve', '--port', '0', '--scenario', 'settings-twice']);
    const anonymous = async () =>
      (await fetch(`${server!.url}/api/g1/meta/setting?ref=`)).headers.get('x-mockvideo-step');
    expect([await anonymous(), await anonymous(), (await setting(DEVICE_A))[1]]).toEqual(['1/2', '2/2', '1/2']);
    const { clients } = await (await admin('/state')).json();
    expect(
      clients.map((c: { client: string }) => c.client.replace(/^address:.*127\.0\.0\.1$/, 'address:127.0.0.1')),
    ).toEqual(['address:127.0.0.1', `sdevid:${DEVICE_A}`]);
  });

  it("the same device's next start-up, after the quiet gap, gets the first answer again; a burst of only localplay/recomm is no start-up", async () => {
    server = await startCli(['serve', '--port', '0', '--scenario', 'settings-twice', '--gap', '0.3']);
    expect([await setting(DEVICE_A), await setting(DEVICE_A)]).toEqual([
      ['3', '1/2'],
      ['4', '2/2'],
    ]);
    await sleep(450);
    // The recommendation view after playback, alone in its burst: not a start-up, the device's counters stay.
    expect((await fetch(`${server.url}${pathOf('localplay/recomm', DEVICE_A)}`)).status).toBe(200);
    expect((await (await admin('/state')).json()).clients).toEqual([
      expect.objectContaining({ client: `sdevid:${DEVICE_A}`, startUps: 1, counters: 1 }),
    ]);
    await sleep(450);
    expect([await setting(DEVICE_A), await setting(DEVICE_A)]).toEqual([
      ['3', '1/2'],
      ['4', '2/2'],
    ]);
    expect((await (await admin('/state')).json()).clients).toEqual([
      expect.objectContaining({ client: `sdevid:${DEVICE_A}`, startUps: 2 }),
    ]);
  });

  it('POST /__mockvideo/state/reset?_sdevid= starts one device again; without it, every device', async () => {
    server = await startCli(['serve', '--port', '0', '--scenario', 'settings-twice']);
    await setting(DEVICE_A);
    await setting(DEVICE_B);
    const reset = await admin(`/state/reset?_sdevid=${DEVICE_B}`, { method: 'POST' });
    expect(await reset.json()).toEqual({ reset: 1, client: `sdevid:${DEVICE_B}` });
    expect([await setting(DEVICE_A), await setting(DEVICE_B)]).toEqual([
      ['4', '2/2'],
      ['3', '1/2'],
    ]);
    expect((await (await admin('/state/reset', { method: 'POST' })).json()).reset).toBe(2);
    expect(await setting(DEVICE_A)).toEqual(['3', '1/2']);
  });

  it('--state global keeps one sequence for the whole server, as a scenario\'s "state": "global" does', async () => {
    server = await startCli(['serve', '--port', '0', '--scenario', 'settings-twice', '--state', 'global']);
    expect([await setting(DEVICE_A), await setting(DEVICE_B)]).toEqual([
      ['3', '1/2'],
      ['4', '2/2'],
    ]);
    expect((await (await admin('/health')).json()).state).toBe('global');
  });

  it('refuses a bad --state or --gap with one line naming the flag', async () => {
    await expect(startCli(['serve', '--port', '0', '--gap', 'soon'])).rejects.toThrow(
      /--gap soon: expected a number of seconds/,
    );
  });
});

describe('faults with times, per device or for the whole server', () => {
  const planFault = (body: Record<string, unknown>) =>
    admin('/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'meta/cp', kind: 'status', status: 500, times: 1, ...body }),
    });
  const cp = async (device: string) => (await fetch(`${server!.url}${pathOf('meta/cp', device)}`)).status;

  it('times: 1 fires once per device by default (--state client), once overall with "state": "global"', async () => {
    server = await startCli(['serve', '--port', '0']);
    expect((await planFault({})).status).toBe(201);
    expect([await cp(DEVICE_A), await cp(DEVICE_A), await cp(DEVICE_B), await cp(DEVICE_B)]).toEqual([
      500, 200, 500, 200,
    ]);
    await admin('/faults', { method: 'DELETE' });
    expect((await (await planFault({ state: 'global' })).json()).state).toBe('global');
    expect([await cp(DEVICE_A), await cp(DEVICE_B), await cp(DEVICE_A)]).toEqual([500, 200, 200]);
  });

  it('a state reset gives a device its per-device faults again', async () => {
    server = await startCli(['serve', '--port', '0']);
    await planFault({});
    expect([await cp(DEVICE_A), await cp(DEVICE_A)]).toEqual([500, 200]);
    await admin(`/state/reset?_sdevid=${DEVICE_A}`, { method: 'POST' });
    expect(await cp(DEVICE_A)).toBe(500);
  });

  it('refuses a fault whose state is neither client nor global', async () => {
    server = await startCli(['serve', '--port', '0']);
    const refused = await planFault({ state: 'device' });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/"state" must be "client" .* or "global"/);
  });
});
