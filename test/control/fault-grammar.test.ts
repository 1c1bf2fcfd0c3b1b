import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

// Issue 20, items 1, 2 and 8, over HTTP with the real CLI.
let server: CliProcess;
beforeAll(async () => {
  server = await startCli([
    'serve',
    '--port',
    '0',
    '--no-watch',
    '--fault',
    'delay:300-400',
    '--fault',
    'localplay/recomm=reset',
  ]);
});
afterAll(async () => {
  await server.stop();
});

const admin = (method: string, body?: unknown) =>
  fetch(`${server.url}/__mockvideo/faults`, {
    method,
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });

describe('one fault grammar, one set of defaults, every --fault applies', () => {
  it('prints the active faults at start and lists them', async () => {
    await vi.waitFor(() => expect(server.stdout()).toContain('faults: delay:300-400, localplay/recomm=reset'));
    const { faults } = await (await admin('GET')).json();
    expect(faults.map((f: { spec: string }) => f.spec)).toEqual(['delay:300-400', 'localplay/recomm=reset']);
  });

  it('delays every operation and also resets the one named (the order of the flags does not matter)', async () => {
    let started = performance.now();
    const cp = await fetch(`${server.url}${clientPath('meta/cp')}`);
    expect(cp.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    started = performance.now();
    const error = await fetch(`${server.url}${clientPath('localplay/recomm')}`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('takes a status fault without a status through the admin API: HTTP 500, as the flag does', async () => {
    const planned = await admin('POST', { operation: 'meta/cp', kind: 'status', times: 1 });
    expect(planned.status).toBe(201);
    expect(await planned.json()).toMatchObject({ spec: 'meta/cp=status:500', fault: { kind: 'status', status: 500 } });
    expect((await fetch(`${server.url}${clientPath('meta/cp')}`)).status).toBe(500);
  });

  it('takes a delay fault without ms through the admin API: the documented 1000–3000 ms range', async () => {
    const planned = await admin('POST', { kind: 'delay', times: 1 });
    expect(planned.status).toBe(201);
    expect((await planned.json()).fault).toEqual({ kind: 'delay', ms: [1000, 3000] });
  });

  it('takes an envelope fault without a result: result 0', async () => {
    await admin('DELETE');
    await admin('POST', { operation: 'meta/cp', kind: 'envelope', times: 1 });
    expect(await (await fetch(`${server.url}${clientPath('meta/cp')}`)).json()).toMatchObject({ result: 0 });
  });

  it("malformed-json cuts the operation's own answer", async () => {
    await admin('DELETE');
    const whole = await (await fetch(`${server.url}${clientPath('meta/cp')}`)).text();
    await admin('POST', { operation: 'meta/cp', kind: 'malformed-json', times: 1 });
    const cut = await (await fetch(`${server.url}${clientPath('meta/cp')}`)).text();
    expect(whole.startsWith(cut)).toBe(true);
    expect(cut).toContain('"data":[{');
    expect(() => JSON.parse(cut)).toThrow();
  });
});
