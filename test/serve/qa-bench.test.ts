// The QA bench as a new user sees it (issue 41, item 4): what the terminal says when the server is
// steered and stopped, what `GET /` offers, and what a ts-skew finding tells.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { eventually } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0', '--no-watch']);
});
afterAll(async () => {
  await server.stop();
});

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
const admin = (path: string, init?: RequestInit) => fetch(`${server.url}/__mockvideo${path}`, init);
/** The lines printed after the start lines. */
const linesAfterStart = () => server.stdout().split('\n').slice(9);

describe('the terminal says what was changed from the dashboard or the admin API, one line each', () => {
  it('switching the scenario', async () => {
    expect((await admin('/scenario', json('PUT', { name: 'gallery' }))).status).toBe(200);
    const out = await eventually(server.stdout, /scenario "gallery"/);
    expect(out.match(/^.*scenario "gallery".*$/gm)).toEqual([
      'admin: scenario "gallery" now answers every device that does not pick one (was "default")',
    ]);
    await admin('/scenario', json('PUT', { name: 'default' }));
  });

  it('planning and clearing a fault', async () => {
    expect(
      (await admin('/faults', json('POST', { operation: 'meta/setting', kind: 'status', status: 503, times: 2 })))
        .status,
    ).toBe(201);
    await eventually(server.stdout, /fault .* planned/);
    expect((await admin('/faults', json('DELETE'))).status).toBe(200);
    await eventually(server.stdout, /faults cleared/);
    expect(linesAfterStart().filter((l) => /^admin: faults? /.test(l))).toEqual([
      expect.stringMatching(
        /^admin: fault #\d+ meta\/setting=status:503 planned for the next 2 requests of each device$/,
      ),
      'admin: faults cleared (1 planned)',
    ]);
  });

  it('naming a device', async () => {
    const sdevid = '0'.repeat(64);
    expect((await admin(`/devices/${sdevid}/name`, json('PUT', { name: 'QA Pixel 7' }))).status).toBe(200);
    const out = await eventually(server.stdout, /named/);
    expect(out.match(/^.*named.*$/gm)).toEqual(['admin: device 000000000000… named "QA Pixel 7"']);
  });

  it('a refused change prints nothing', async () => {
    const before = server.stdout();
    expect((await admin('/scenario', json('PUT', { name: 'nope' }))).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.stdout()).toBe(before);
  });
});

describe('stopping', () => {
  it('serve prints a line when it stops', async () => {
    const other = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    await fetch(`${other.url}${clientPathWith('meta/cp', {})}`);
    expect(await other.stop('SIGINT')).toBe(0);
    expect(other.stdout()).toMatch(/\nmockvideo stopped after \d+ s: 1 request in the journal\n$/);
  });
});

describe('GET /', () => {
  it('links a browser to the dashboard', async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await page.text()).toMatch(/<a href="\/__mockvideo\/">/);
  });

  it('names the dashboard and the operations to a tool', async () => {
    const answer = await fetch(`${server.url}/`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      dashboard: `${server.url}/__mockvideo/`,
      operations: expect.arrayContaining(['GET /api/g1/meta/cp']),
    });
  });
});

describe('a ts-skew finding', () => {
  it('says how to serve an old capture: --clock at its time', async () => {
    const old = 1_767_225_600; // 2026-01-01T00:00:00Z
    const response = await fetch(`${server.url}${clientPathWith('meta/cp', { _ts: String(old) })}`, {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const { requests } = (await (await admin('/requests?operation=meta/cp')).json()) as {
      requests: Array<{ findings: Array<{ rule: string; message: string }> }>;
    };
    const skew = requests.at(-1)!.findings.find((f) => f.rule === 'ts-skew')!;
    expect(skew.message).toMatch(/to serve an old capture, start mockvideo with --clock 2026-01-01T00:00:00Z/);
  });
});
