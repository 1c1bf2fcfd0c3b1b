import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { shippedCatalog } from '../../scenarios/shipped-catalog.js';
import { createServerContext, type ServerContextOptions } from '../context.js';
import { adminRouter } from './admin.js';

/** The most devices with a scenario of their own: docs/admin-api.md (429 `MV_TOO_MANY_STEERED` past it). */
const MAX_STEERED_DEVICES = 1000;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The admin API of a fresh context (`mode`, `scenariosAnswer` as given) on a free port, and the lines it told. */
async function start(options: Partial<ServerContextOptions> = {}) {
  const context = createServerContext({ mode: 'serve', catalog: shippedCatalog(), scenario: 'default', ...options });
  const lines: string[] = [];
  context.onAdminChange = (line) => lines.push(line);
  const app = express();
  app.use('/__mockvideo', adminRouter(context));
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const call = (method: string, device: string, body?: unknown) =>
    fetch(`${origin}/__mockvideo/devices/${encodeURIComponent(device)}/scenario`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  return { context, lines, call };
}

describe('device scenario routes', () => {
  it('refuses with 409 where no scenario answers (replay without --fallback-scenario), and says how', async () => {
    const { call, context } = await start({ mode: 'replay', scenariosAnswer: false });
    const refused = await call('PUT', 'ab12', { name: 'gallery' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^No scenario answers this replay server.*--fallback-scenario NAME/),
      code: 'MV_NO_SCENARIO_ANSWERS',
    });
    expect(context.deviceScenarios.list()).toEqual([]);
    expect(await (await call('GET', 'ab12')).json()).toEqual({
      device: 'ab12',
      scenario: null,
      steered: false,
      aimedFaults: [],
    });
  });

  it(`refuses with 429 past ${MAX_STEERED_DEVICES} devices; switching one already steered still works`, async () => {
    const { call, context } = await start();
    for (let n = 0; n < MAX_STEERED_DEVICES; n++) context.deviceScenarios.set(`sdevid:d${n}`, 'gallery');
    const refused = await call('PUT', 'one-more', { name: 'gallery' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(
        /^1000 devices have a scenario .* \(DELETE \/__mockvideo\/devices\/SDEVID\/scenario\) first\.$/,
      ),
      code: 'MV_TOO_MANY_STEERED',
    });
    expect((await call('PUT', 'd7', { name: 'flaky' })).status).toBe(200);
  });

  it('tells one line per change, none for a DELETE that changes nothing; a name in it cannot steer the terminal', async () => {
    const { call, lines } = await start();
    await call('PUT', 'address:10.0.2.16', { name: 'gallery' });
    await call('PUT', 'address:10.0.2.16', { name: 'flaky' });
    await call('DELETE', 'address:10.0.2.16');
    await call('DELETE', 'address:10.0.2.16');
    expect(lines).toEqual([
      `device address:10.0…: scenario "gallery" now answers its requests (was the server's "default")`,
      `device address:10.0…: scenario "flaky" now answers its requests (was "gallery")`,
      `device address:10.0…: follows the server's scenario "default" again (was "flaky")`,
    ]);
    expect((await call('PUT', 'ab\u001b[2J', { name: 'gallery' })).status).toBe(400);
    expect(lines).toHaveLength(3);
  });
});
