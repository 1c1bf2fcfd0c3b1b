// The guard holes of issue 21 item 6 closed in the device host (each case failed before): the
// recorder's /api/g1 refuses foreign Hosts and cross-site pages, percent-encoded spellings of
// /__mockvideo meet the admin guard, and analytics mutations need the guard and the token.
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

/** One request over node:http (fetch cannot set Host); resolves with status and body text. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the recorder forwards only requests of devices and tools', () => {
  const upstream = useUpstream();
  let recorder: CliProcess;
  let port: string;
  beforeAll(async () => {
    recorder = await startCli([
      'record',
      '--upstream',
      upstream.url,
      '--out',
      tempDir(),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--allow-host',
      'devbox.test',
    ]);
    port = new URL(recorder.url).port;
  });
  afterAll(() => recorder.stop('SIGINT'));

  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'evil.example' }],
    ['a cross-site page', { host: `127.0.0.1:PORT`, origin: 'http://evil.example' }],
  ])('refuses %s with 403 and forwards nothing', async (_what, headers) => {
    const before = upstream.received.length;
    const answer = await send(
      `${recorder.url}${clientPath('meta/cp')}`,
      'GET',
      Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', port)])),
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text).error).toMatch(/^Refused: .*--allow-host/);
    expect(upstream.received.slice(before)).toEqual([]);
  });

  it.each([
    ['the emulator address', '10.0.2.2'],
    ['a name given with --allow-host', 'devbox.test'],
    ['loopback', '127.0.0.1'],
  ])('forwards a device that uses %s', async (_what, name) => {
    const before = upstream.received.length;
    // One path for the request and the check: clientPath stamps _ts with the current second.
    const path = clientPath('meta/setting');
    const answer = await send(`${recorder.url}${path}`, 'GET', { host: `${name}:${port}` });
    expect(answer.status).toBe(200);
    expect(upstream.received.slice(before)).toEqual([path]);
  });
});

describe('replay --record-missing forwards only requests of devices and tools, with either engine', () => {
  const upstream = useUpstream();
  it.each(['routes', 'msw'])('--engine %s refuses a foreign Host with 403 and forwards a device', async (engine) => {
    const replay = await startCli([
      'replay',
      tempDir(),
      '--record-missing',
      '--upstream',
      upstream.url,
      '--port',
      '0',
      '--no-watch',
      '--engine',
      engine,
    ]);
    try {
      const before = upstream.received.length;
      expect((await send(`${replay.url}${clientPath('meta/cp')}`, 'GET', { host: 'evil.example' })).status).toBe(403);
      expect(upstream.received.slice(before)).toEqual([]);
      const path = clientPath('meta/cp');
      expect((await send(`${replay.url}${path}`, 'GET', { host: `10.0.2.2:${new URL(replay.url).port}` })).status).toBe(
        200,
      );
      expect(upstream.received.slice(before)).toEqual([path]);
    } finally {
      await replay.stop('SIGINT');
    }
  });
});

describe('serve: odd spellings of /__mockvideo and the analytics sink', () => {
  let server: CliProcess;
  beforeAll(async () => {
    server = await startCli([
      'serve',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--analytics-path',
      '/collect',
      '--admin-token',
      'test-token-not-a-secret',
    ]);
  });
  afterAll(() => server.stop('SIGINT'));

  it.each([
    '/%5F%5Fmockvideo/requests',
    '/%5f%5fmockvideo/requests',
    '/__mockvideo//requests',
    '/x/../__mockvideo/requests',
  ])('%s meets the admin guard (403 for a foreign page) and is answered as the admin API otherwise', async (path) => {
    expect((await send(`${server.url}${path}`, 'GET', { origin: 'http://evil.example' })).status).toBe(403);
    const own = await send(`${server.url}${path}`, 'GET');
    expect(own.status).toBe(200);
    expect(JSON.parse(own.text)).toHaveProperty('requests');
  });

  it("refuses analytics posted to a custom --analytics-path by a web page, and takes a device's", async () => {
    const record = JSON.stringify({ event: 'play' });
    expect(
      (
        await send(
          `${server.url}/collect`,
          'POST',
          { origin: 'http://evil.example', 'content-type': 'application/json' },
          record,
        )
      ).status,
    ).toBe(403);
    expect(
      (await send(`${server.url}/%5F%5Fmockvideo/analytics`, 'DELETE', { origin: 'http://evil.example' })).status,
    ).toBe(403);
    const device = await send(`${server.url}/collect`, 'POST', { 'content-type': 'application/json' }, record);
    expect(device.status).toBe(200);
    expect(JSON.parse(device.text).accepted).toBe(1);
  });

  const lan = Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;
  it.skipIf(!lan)('empties the analytics from another host only with the admin token', async () => {
    const url = `http://${lan}:${new URL(server.url).port}/__mockvideo/analytics`;
    const refused = await send(url, 'DELETE');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error).toMatch(/admin token/);
    expect((await send(url, 'DELETE', { authorization: 'Bearer test-token-not-a-secret' })).status).toBe(204);
  });
});
