import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../contract/index.js';
import { shippedCatalog } from '../scenarios/index.js';
import { clientPath } from '../../test/support/client.js';
import { createServerContext } from './context.js';
import { createFastPath } from './fast-path.js';

/** 599 marks a request the fast path left to the full host. */
const LEFT = 599;
let server: Server;
let base: string;

beforeAll(async () => {
  const context = createServerContext({ mode: 'serve', catalog: shippedCatalog(), scenario: 'default' });
  const fast = createFastPath(context);
  server = createServer((req, res) => {
    if (!fast(req, res)) res.writeHead(LEFT).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createFastPath', () => {
  it.each(OPERATION_NAMES)('takes the client\'s request to %s, bare and below a scenario prefix, GET and HEAD', async (operation) => {
    for (const path of [clientPath(operation), `/scenarios/gallery${clientPath(operation)}`]) {
      for (const method of ['GET', 'HEAD']) expect((await fetch(`${base}${path}`, { method })).status, `${method} ${path}`).toBe(200);
    }
  });

  it.each([
    ['another method', 'POST', '/api/g1/meta/cp'],
    ['a path that is not an operation', 'GET', '/api/g1/meta/nothing'],
    ['the admin API', 'GET', '/__mockvideo/health'],
    ['a trailing slash', 'GET', '/api/g1/meta/cp/'],
    ['a percent-encoded scenario name', 'GET', '/scenarios/gal%6cery/api/g1/meta/cp'],
    ['a dot segment', 'GET', '/scenarios/x/../api/g1/meta/cp'],
    ['a request target over the length limit', 'GET', `/api/g1/meta/cp?x=${'a'.repeat(9000)}`],
  ])('leaves %s to the full host', async (_what, method, path) => {
    expect((await fetch(`${base}${path}`, { method })).status).toBe(LEFT);
  });
});
