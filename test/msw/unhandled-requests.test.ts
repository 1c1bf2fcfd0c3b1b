// A test author's guard against unmocked calls (issues 31 and 43): with the package's handlers
// installed as the docs install them (`createHandlers()`, no baseUrl, `server.listen(onUnhandled('error'))`),
// a request to any path or host the routes do not answer is msw's unhandled request, and it fails
// instead of reaching the network, on msw 2 and msw 3 alike (`onUnhandled` names the option both
// ways). A real server on 127.0.0.1 counts what got through. Runs on both legs of .ci/run (msw 2 and 3).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, onUnhandled } from '../../src/index.js';
import { createReplayHandlers } from '../../src/node.js';
import { MSW_MAJOR } from '../support/msw-major.js';

let network: Server;
let origin = '';
const reached: string[] = [];
const initial = createHandlers();
const server = setupServer(...initial);

beforeAll(async () => {
  network = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"network"}');
  });
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(network.address() as AddressInfo).port}`;
  server.listen(onUnhandled('error'));
});
// resetHandlers(...list) replaces the initial handlers: each test starts from createHandlers() again.
afterEach(() => server.resetHandlers(...initial));
afterAll(async () => {
  server.close();
  await new Promise((resolve) => network.close(resolve));
});

/** The outcome of a fetch: its status, or `failed` when msw refused it. */
async function outcome(url: string): Promise<number | 'failed'> {
  try {
    return (await fetch(url)).status;
  } catch {
    return 'failed';
  }
}

describe(`createHandlers() under msw ${MSW_MAJOR} with server.listen(onUnhandled('error'))`, () => {
  it('answers the service paths on any origin, as before', async () => {
    expect(await outcome(`${origin}/api/g1/meta/cp?ref=`)).toBe(200);
    expect(await outcome('https://api.example.com/scenarios/gallery/api/g1/ad_config?ref=')).toBe(200);
    expect(await outcome(`${origin}/api/g1/meta/nothing`)).toBe(404);
    expect(await outcome('https://cdn.example.com/__mockvideo/media/thumb/streamly/sv1001.jpg')).toBe(200);
    expect(reached).toEqual([]);
  });

  it('fails a request to another path or host instead of letting it reach the network', async () => {
    const unmocked = [
      `${origin}/health`,
      `${origin}/v2/api/g1/meta/cp`,
      `${origin}/__mockvideo/requests`,
      `${origin}/scenarios/gallery/other`,
    ];
    expect(await Promise.all(unmocked.map(outcome))).toEqual(unmocked.map(() => 'failed'));
    expect(reached).toEqual([]);
  });

  it('with baseUrl, fails a request to the service paths of another origin', async () => {
    server.resetHandlers(...createHandlers({ baseUrl: 'https://api.example.com' }));
    expect(await outcome('https://api.example.com/api/g1/meta/cp?ref=')).toBe(200);
    expect(await outcome(`${origin}/api/g1/meta/cp?ref=`)).toBe('failed');
    expect(reached).toEqual([]);
  });

  it('replay handlers take no downloads: those fail too', async () => {
    // (Not an image: msw lets requests for static files such as `.jpg` through under any strategy.)
    server.resetHandlers(...createReplayHandlers([]));
    expect(await outcome(`${origin}/api/g1/meta/cp?ref=`)).toBe(404);
    expect(await outcome(`${origin}/__mockvideo/plugins`)).toBe('failed');
    expect(reached).toEqual([]);
  });

  it('lets an unmocked request through under "bypass": the network answers it', async () => {
    server.close();
    server.listen(onUnhandled('bypass'));
    expect(await outcome(`${origin}/health`)).toBe(200);
    expect(reached).toEqual(['/health']);
  });
});
