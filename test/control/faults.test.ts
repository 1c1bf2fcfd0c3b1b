import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0', '--fault', 'meta/plugin=status:503']);
});
afterAll(async () => {
  await server.stop();
});

const plan = (fault: Record<string, unknown>) =>
  fetch(`${server.url}/__mockvideo/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'meta/cp', times: 1, ...fault }),
  });
const cp = (init?: RequestInit) => fetch(`${server.url}${clientPath('meta/cp')}`, init);

describe('faults injected through the admin API, seen by a real client', () => {
  it('delay: answers normally, later', async () => {
    expect((await plan({ kind: 'delay', ms: 400 })).status).toBe(201);
    const started = performance.now();
    const response = await cp();
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mockvideo-fault')).toBe('delay');
    expect((await response.json()).msg).toBe('OK');
  });

  it('status: the HTTP status with the body', async () => {
    await plan({ kind: 'status', status: 418, body: 'teapot' });
    const response = await cp();
    expect(response.status).toBe(418);
    expect(await response.text()).toBe('teapot');
  });

  it('envelope: status 200 with result other than 1', async () => {
    await plan({ kind: 'envelope', result: -1, msg: 'token expired' });
    expect(await (await cp()).json()).toEqual({ data: {}, msg: 'token expired', result: -1 });
  });

  it('malformed-json: a body that does not parse', async () => {
    await plan({ kind: 'malformed-json' });
    const text = await (await cp()).text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('empty: status 200 and no body', async () => {
    await plan({ kind: 'empty' });
    const response = await cp();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('reset: a socket error, and the server keeps serving', async () => {
    await plan({ kind: 'reset' });
    const error = await cp().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error & { cause?: unknown }).cause)).toMatch(/other side closed|ECONNRESET|socket/i);
    expect((await cp()).status).toBe(200);
  });

  it('hang: no answer until the client gives up', async () => {
    await plan({ kind: 'hang' });
    const error = await cp({ signal: AbortSignal.timeout(600) }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).toBe('TimeoutError');
    expect((await cp()).status).toBe(200);
  });

  it('a planned fault is used up after `times` requests, is listed, and can be cleared', async () => {
    await plan({ kind: 'status', status: 500, times: 2 });
    expect([(await cp()).status, (await cp()).status, (await cp()).status]).toEqual([500, 500, 200]);
    const { faults } = await (await fetch(`${server.url}/__mockvideo/faults`)).json();
    expect(
      faults.some(
        (f: { fault: { status?: number }; fired: number; remaining: number }) =>
          f.fault.status === 500 && f.fired === 2 && f.remaining === 0,
      ),
    ).toBe(true);
  });

  it('journals the fault of each request', async () => {
    await fetch(`${server.url}/__mockvideo/requests`, { method: 'DELETE' });
    await plan({ kind: 'empty' });
    await cp();
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    expect(requests[0]).toMatchObject({ operation: 'meta/cp', fault: 'empty', status: 200 });
  });

  it('rejects a bad fault with 400 naming the field', async () => {
    const response = await plan({ kind: 'delay', ms: 1e9 });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/"ms"/);
  });

  it('--fault at start applies to its operation until cleared', async () => {
    expect((await fetch(`${server.url}${clientPath('meta/plugin')}`)).status).toBe(503);
    expect((await fetch(`${server.url}${clientPath('meta/setting')}`)).status).toBe(200);
    await fetch(`${server.url}/__mockvideo/faults`, { method: 'DELETE' });
    expect((await fetch(`${server.url}${clientPath('meta/plugin')}`)).status).toBe(200);
  });
});

describe('shipped fault scenarios', () => {
  const status = (base: string, op: Parameters<typeof clientPath>[0], scenario: string) =>
    fetch(`${base}/scenarios/${scenario}${clientPath(op)}`).then(
      (r) => r.status,
      () => 'reset',
    );

  it('server-error: operations 1, 3 and 4 answer HTTP 500, the others 200', async () => {
    const codes = await Promise.all(
      (['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'] as const).map(
        (op) => status(server.url, op, 'server-error'),
      ),
    );
    expect(codes).toEqual([500, 200, 500, 500, 200, 200]);
  });

  it('connection-reset: every operation resets the connection', async () => {
    expect(await status(server.url, 'meta/cp', 'connection-reset')).toBe('reset');
    expect(await status(server.url, 'localplay/recomm', 'connection-reset')).toBe('reset');
  });

  it('flaky: the same deterministic share of failures on every run', async () => {
    const run = async () => {
      const fresh = await startCli(['serve', '--port', '0', '--scenario', 'flaky']);
      try {
        const codes: number[] = [];
        for (let i = 0; i < 20; i++) codes.push((await fetch(`${fresh.url}${clientPath('meta/setting')}`)).status);
        return codes;
      } finally {
        await fresh.stop();
      }
    };
    const [first, second] = [await run(), await run()];
    expect(first).toEqual(second);
    expect(first.filter((c) => c === 503).length).toBeGreaterThan(0);
    expect(first.filter((c) => c === 200).length).toBeGreaterThan(10);
  });

  it('slow-network: answers take seconds', async () => {
    const started = performance.now();
    expect(await status(server.url, 'ad_config', 'slow-network')).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1450);
  });
});

describe('--strict-requests', () => {
  it('answers a request that breaks the contract with 400 listing the findings, and a correct one normally', async () => {
    const strict = await startCli(['serve', '--port', '0', '--strict-requests']);
    try {
      const broken = await fetch(`${strict.url}${clientPath('meta/cp').replace('_region=IN', '_region=in')}`);
      expect(broken.status).toBe(400);
      expect((await broken.json()).findings).toEqual([
        expect.objectContaining({ parameter: '_region', rule: 'format' }),
      ]);
      expect((await fetch(`${strict.url}${clientPath('meta/cp')}`)).status).toBe(200);
    } finally {
      await strict.stop();
    }
  });
});
