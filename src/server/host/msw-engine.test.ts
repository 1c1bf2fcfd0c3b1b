import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../msw/handlers.js';
import { shippedCatalog } from '../../scenarios/shipped-catalog.js';
import { createApp } from '../admin/app.js';
import { createServerContext } from '../context.js';
import { deviceListener } from './device-host.js';
import { mswRoutes } from './msw-engine.js';

/** What a client sees of one request: status, headers, body; `reset` when the connection closed without an answer. */
function send(
  base: string,
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string } | 'reset'> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.message === 'socket hang up' ? resolve('reset') : reject(error),
    );
    req.end();
  });
}

describe('mswRoutes (--engine msw) in the Node host', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    const handlers = [
      http.all(
        '*/api/g1/x/answer',
        ({ request }) =>
          new HttpResponse(`from ${new URL(request.url).origin}`, {
            status: 201,
            headers: [
              ['x-a', '1'],
              ['set-cookie', 'a=1'],
            ],
          }),
      ),
      http.get('*/api/g1/x/reset', () => HttpResponse.error()),
      http.get('*/api/g1/x/fault', () => {
        throw new TypeError('handlers broke');
      }),
      ...createHandlers({ scenario: 'default' }),
    ];
    const context = createServerContext({ mode: 'serve', catalog: shippedCatalog(), scenario: 'default' });
    const routes = mswRoutes(handlers);
    server = createServer(deviceListener({ context, routes, adminApp: () => createApp({}) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("writes the answer of the handlers: status, headers, body; for HEAD the GET answer's headers, no body", async () => {
    expect(await send(base, 'GET', '/api/g1/x/answer')).toMatchObject({
      status: 201,
      headers: { 'x-a': '1', 'set-cookie': ['a=1'] },
      body: `from ${base}`,
    });
    // As the default engine answers HEAD: the headers of the GET answer (its content-length too), no body.
    expect(await send(base, 'HEAD', '/api/g1/x/answer')).toMatchObject({
      status: 201,
      headers: { 'content-length': String(`from ${base}`.length) },
      body: '',
    });
  });

  it("answers HEAD to an operation with the GET answer's headers (content-length included) and no body, as the default engine", async () => {
    const get = await send(base, 'GET', '/api/g1/meta/cp?_region=IN');
    const head = await send(base, 'HEAD', '/api/g1/meta/cp?_region=IN');
    if (get === 'reset' || head === 'reset') throw new Error('the connection was reset');
    expect(get.body.length).toBeGreaterThan(0);
    expect([head.status, head.headers['content-length'], head.body]).toEqual([
      200,
      String(Buffer.byteLength(get.body)),
      '',
    ]);
  });

  it('closes the connection for a network error (HttpResponse.error(), status 0) and keeps serving', async () => {
    expect(await send(base, 'GET', '/api/g1/x/reset')).toBe('reset');
    expect(await send(base, 'GET', '/api/g1/x/answer')).toMatchObject({ status: 201 });
  });

  it('answers a fault of the handlers with a 500 naming mockvideo, never a 400 blamed on the client', async () => {
    const seen = await send(base, 'GET', '/api/g1/x/fault');
    expect(seen).toMatchObject({ status: 500 });
    expect(JSON.parse((seen as { body: string }).body).error).toMatch(/^mockvideo failed to answer: handlers broke/);
  });

  it('leaves what no handler answers to the host: its 404 naming the operations', async () => {
    const seen = await send(base, 'GET', '/api/g1/x/elsewhere');
    expect(seen).toMatchObject({ status: 404 });
    expect((seen as { body: string }).body).toContain('/api/g1');
  });
});
