import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0', '--no-watch']);
});
afterAll(async () => {
  await server.stop();
});

/** A raw request with exactly the headers given (fetch would not let a test forge Host or Origin). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a web page open in the browser cannot steer or read mockvideo', () => {
  it('refuses a foreign Origin switching the scenario', async () => {
    const response = await raw(
      'PUT',
      '/__mockvideo/scenario',
      { origin: 'http://evil.example', 'content-type': 'application/json' },
      '{"name":"gallery"}',
    );
    expect(response.status).toBe(403);
    expect((await (await fetch(`${server.url}/__mockvideo/scenario`)).json()).name).toBe('default');
  });

  it('refuses a form post (no JSON content type, so no CORS preflight) even without Origin', async () => {
    expect(
      (await raw('POST', '/__mockvideo/faults', { 'content-type': 'text/plain' }, '{"kind":"reset"}')).status,
    ).toBe(415);
  });

  it('answers a foreign preflight without CORS permission', async () => {
    const response = await raw('OPTIONS', '/__mockvideo/faults', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(response.status).toBe(403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('does not let a foreign page read the journal', async () => {
    const response = await raw('GET', '/__mockvideo/requests', { origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('"requests"');
  });

  it('refuses a Host that is not this server (DNS rebinding)', async () => {
    const response = await raw('GET', '/__mockvideo/requests.har', {
      host: `rebind.attacker.example:${new URL(server.url).port}`,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error).toMatch(/is not a name of this server/);
  });

  it('refuses what a sandboxed (opaque-origin) document sends: Origin null, Sec-Fetch-Site cross-site; a followed link still opens the dashboard', async () => {
    expect(
      (
        await raw(
          'POST',
          '/__mockvideo/faults',
          { origin: 'null', 'content-type': 'application/json' },
          '{"operation":"meta/cp","kind":"status","status":418}',
        )
      ).status,
    ).toBe(403);
    expect(
      (await raw('GET', '/__mockvideo/requests', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' })).status,
    ).toBe(403);
    expect(
      (await raw('GET', '/__mockvideo/requests', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' }))
        .status,
    ).toBe(403);
    expect(
      (await raw('GET', '/__mockvideo/requests', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status,
    ).toBe(200);
    expect(
      (await raw('GET', '/__mockvideo/health', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }))
        .status,
    ).toBe(200);
    expect((await (await fetch(`${server.url}/__mockvideo/faults`)).json()).faults).toEqual([]);
  });

  it('still serves its own page origin', async () => {
    expect((await raw('GET', '/__mockvideo/health', { origin: server.url })).status).toBe(200);
  });
});

describe('analytics, which hold device identifiers, are guarded the same way', () => {
  it('refuses a foreign page reading them', async () => {
    const response = await raw('GET', '/__mockvideo/analytics', { origin: 'http://evil.example' });
    expect(response.status).toBe(403);
  });
});
