import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../admin/app.js';
import { mswEngine } from './msw-engine.js';

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

describe('mswEngine (--engine msw) in the Express host', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    const handlers = [
      http.all(
        '*/answer',
        ({ request }) =>
          new HttpResponse(`from ${new URL(request.url).origin}`, {
            status: 201,
            headers: [
              ['x-a', '1'],
              ['set-cookie', 'a=1'],
              ['set-cookie', 'b=2'],
            ],
          }),
      ),
      http.get('*/reset', () => HttpResponse.error()),
      http.get('*/fault', () => {
        throw new TypeError('handlers broke');
      }),
    ];
    server = createServer(createApp({ device: mswEngine(handlers) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('writes the answer of the handlers: status, headers (every set-cookie), body; no body for HEAD', async () => {
    expect(await send(base, 'GET', '/answer')).toMatchObject({
      status: 201,
      headers: { 'x-a': '1', 'set-cookie': ['a=1', 'b=2'] },
      body: `from ${base}`,
    });
    expect(await send(base, 'HEAD', '/answer')).toMatchObject({ status: 201, body: '' });
  });

  it('closes the connection for a network error (HttpResponse.error(), status 0) and keeps serving', async () => {
    expect(await send(base, 'GET', '/reset')).toBe('reset');
    expect(await send(base, 'GET', '/answer')).toMatchObject({ status: 201 });
  });

  it('answers a fault of the handlers with a 500 naming mockvideo, never a 400 blamed on the client', async () => {
    const seen = await send(base, 'GET', '/fault');
    expect(seen).toMatchObject({ status: 500 });
    expect(JSON.parse((seen as { body: string }).body).error).toMatch(/^mockvideo failed to answer: handlers broke/);
  });

  it('leaves what no handler answers to the host: its 404 naming the operations', async () => {
    const seen = await send(base, 'GET', '/elsewhere');
    expect(seen).toMatchObject({ status: 404 });
    expect((seen as { body: string }).body).toContain('/api/g1');
  });
});
