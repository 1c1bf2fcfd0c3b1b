import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shippedCatalog } from '../../scenarios/shipped-catalog.js';
import { createServerContext, type ServerContext } from '../context.js';
import { dashboardRoutes } from './dashboard-routes.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function start(): Promise<{ context: ServerContext; origin: string }> {
  const context = createServerContext({ mode: 'serve', catalog: shippedCatalog(), scenario: 'default' });
  const app = express();
  app.use('/__mockvideo', dashboardRoutes(context));
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { context, origin: `http://127.0.0.1:${(server!.address() as AddressInfo).port}` };
}

/** Reads server-sent events until `count` have arrived; returns them as `[name, data]`. */
async function readEvents(response: Response, count: number, during: () => void): Promise<Array<[string, unknown]>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Array<[string, unknown]> = [];
  let buffer = '';
  let acted = false;
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (name && data) events.push([name, JSON.parse(data)]);
    }
    if (!acted && events.length >= 2) {
      acted = true;
      during();
    }
  }
  await reader.cancel();
  return events;
}

const entry = {
  time: '2026-01-01T00:00:00.000Z',
  operation: 'meta/cp',
  query: {},
  scenario: 'default',
  status: 200,
  durationMs: 1,
  findings: [],
  match: null,
  fault: null,
};
const exchange = {
  entry,
  method: 'GET',
  path: '/api/g1/meta/cp',
  rawQuery: [],
  requestHeaders: {},
  responseHeaders: {},
  responseBody: '',
  answerBody: { body: '' },
};

describe('dashboard routes', () => {
  it('streams the scenario and faults first, then each journal entry, scenario switch, fault change and clear', async () => {
    const { context, origin } = await start();
    context.journal.add(exchange);
    const response = await fetch(`${origin}/__mockvideo/events`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Changes are sent on the stream's next tick (every 250 ms), in this order; the clear a tick later.
    const events = await readEvents(response, 6, () => {
      context.journal.add(exchange);
      context.active.scenario = 'gallery';
      context.faults.add({ operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
      setTimeout(() => context.journal.clear(), 600);
    });
    expect(events.map(([name]) => name)).toEqual([
      'scenario',
      'faults',
      'request',
      'scenario',
      'faults-changed',
      'cleared',
    ]);
    expect(events[2]![1]).toMatchObject({ id: 2, operation: 'meta/cp' });
    expect(events[3]![1]).toEqual({ name: 'gallery' });
    expect(events[4]![1]).toMatchObject({
      changed: [{ operation: 'meta/cp', fault: { kind: 'reset' }, remaining: 1 }],
      removed: [],
    });
  });

  it('a fifth stream from one address takes the slot of its oldest, which is told why and ends; never listens on the journal', async () => {
    const { context, origin } = await start();
    const subscribe = vi.spyOn(context.journal, 'subscribe');
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const open: Response[] = [];
    for (const controller of controllers)
      open.push(await fetch(`${origin}/__mockvideo/events`, { signal: controller.signal }));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const oldest = await readEvents(open[0]!, 3, () => undefined);
    expect(oldest.map(([name]) => name)).toEqual(['scenario', 'faults', 'dropped']);
    expect(oldest[2]![1]).toEqual({ reason: expect.stringMatching(/at most 16 open, 4 from one address/) });
    // The newest still streams.
    const newest = readEvents(open[4]!, 3, () => context.journal.add(exchange));
    expect((await newest).map(([name]) => name)).toEqual(['scenario', 'faults', 'request']);
    expect(subscribe).not.toHaveBeenCalled();
    for (const controller of controllers) controller.abort();
  });

  it('sends what changed on the fault board, not the whole list: a counted fault, then the ids of cleared ones (issue 39, L8)', async () => {
    const { context, origin } = await start();
    for (let i = 0; i < 1000; i++) context.faults.add({ operation: 'meta/cp', fault: { kind: 'reset' }, times: 1 });
    const response = await fetch(`${origin}/__mockvideo/events`);
    const events = await readEvents(response, 4, () => {
      context.faults.take('meta/cp', { query: '_sdevid=a' });
      context.faults.take('meta/cp', { query: '_sdevid=b' });
      setTimeout(() => context.faults.clear(), 600);
    });
    expect(events.map(([name]) => name)).toEqual(['scenario', 'faults', 'faults-changed', 'faults-changed']);
    expect((events[1]![1] as { faults: unknown[] }).faults).toHaveLength(1000);
    expect(events[2]![1]).toEqual({
      changed: [expect.objectContaining({ id: 1000, fired: 2, seen: 2, remaining: 0 })],
      removed: [],
    });
    expect(events[3]![1]).toEqual({ changed: [], removed: Array.from({ length: 1000 }, (_, i) => i + 1) });
  });

  it('lists the devices of the journal, keeps the name given to one and says so on the event stream', async () => {
    const { context, origin } = await start();
    const device = (sdevid: string, time: string) => ({
      ...exchange,
      entry: {
        ...entry,
        time,
        query: { _sdevid: [sdevid], _model: ['Pixel 7'], _andver: ['34'], _appver: ['2024062790'], _anoyid: ['u-1'] },
      },
    });
    context.journal.add(device('a'.repeat(64), '2026-01-01T00:00:00.000Z'));
    context.journal.add(device('a'.repeat(64), '2026-01-01T00:00:01.000Z'));
    context.journal.add({
      ...exchange,
      entry: {
        ...entry,
        findings: [{ parameter: '_sdevid', rule: 'missing-parameter', message: '_sdevid is missing' }],
      },
    });
    const events = await fetch(`${origin}/__mockvideo/events`);
    const named = readEvents(events, 3, () => undefined);
    const put = await fetch(`${origin}/__mockvideo/devices/${'a'.repeat(64)}/name`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '  QA Pixel  ' }),
    });
    expect(await put.json()).toEqual({ sdevid: 'a'.repeat(64), name: 'QA Pixel' });
    expect((await named).map(([name]) => name)).toEqual(['scenario', 'faults', 'devices']);
    const { devices } = (await (await fetch(`${origin}/__mockvideo/devices`)).json()) as { devices: unknown[] };
    expect(devices).toEqual([
      {
        sdevid: 'a'.repeat(64),
        name: 'QA Pixel',
        model: 'Pixel 7',
        andver: '34',
        appver: '2024062790',
        anoyids: ['u-1'],
        firstSeen: '2026-01-01T00:00:00.000Z',
        lastSeen: '2026-01-01T00:00:01.000Z',
        requests: 2,
        withFindings: 0,
        findings: 0,
        faults: 0,
        scenario: 'default',
        steered: false,
        aimedFaults: [],
      },
      expect.objectContaining({ sdevid: '(no _sdevid)', name: null, requests: 1, withFindings: 1, findings: 1 }),
    ]);
    const bad = await fetch(`${origin}/__mockvideo/devices/x/name`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name": 3}',
    });
    expect(bad.status).toBe(400);
  });

  it("says each device's own scenario and aimed faults, lists a device steered before it calls, and tells the event stream", async () => {
    const { context, origin } = await start();
    const events = await fetch(`${origin}/__mockvideo/events`);
    const told = readEvents(events, 3, () => context.deviceScenarios.set(`sdevid:${'c'.repeat(64)}`, 'gallery'));
    expect((await told).map(([name]) => name)).toEqual(['scenario', 'faults', 'devices']);
    const aimed = context.faults.add({ device: 'd'.repeat(64), fault: { kind: 'reset' } });
    const { devices } = (await (await fetch(`${origin}/__mockvideo/devices`)).json()) as { devices: unknown[] };
    expect(devices).toEqual([
      expect.objectContaining({
        sdevid: 'c'.repeat(64),
        scenario: 'gallery',
        steered: true,
        requests: 0,
        firstSeen: null,
      }),
      expect.objectContaining({ sdevid: 'd'.repeat(64), scenario: 'default', steered: false, aimedFaults: [aimed] }),
    ]);
  });

  it("gives each device's bursts with verify's verdict on each", async () => {
    const { context, origin } = await start();
    context.journal.add({ ...exchange, entry: { ...entry, query: { _sdevid: ['b'.repeat(64)] }, durationMs: 12 } });
    const { startUps } = (await (await fetch(`${origin}/__mockvideo/start-ups`)).json()) as {
      startUps: Array<Record<string, unknown>>;
    };
    expect(startUps).toEqual([
      expect.objectContaining({
        device: 'b'.repeat(64),
        ids: [1],
        start: Date.parse(entry.time),
        end: Date.parse(entry.time) + 12,
        startUp: true,
        ok: false,
      }),
    ]);
  });

  it('redirects /__mockvideo to /__mockvideo/ and refuses unknown assets', async () => {
    const { origin } = await start();
    const bare = await fetch(`${origin}/__mockvideo`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/__mockvideo/']);
    const page = await fetch(`${origin}/__mockvideo/`);
    // 200 once `npm run build` wrote dist/dashboard; 503 naming the fix before.
    if (page.status === 200) {
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('/__mockvideo/assets/app.js');
    } else {
      expect([page.status, await page.text()]).toEqual([503, expect.stringContaining('npm run build')]);
    }
    expect((await fetch(`${origin}/__mockvideo/assets/secrets.json`)).status).toBe(404);
    expect((await fetch(`${origin}/__mockvideo/assets/index.html`)).status).toBe(404);
  });
});
