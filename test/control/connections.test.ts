import { readdirSync, readFileSync } from 'node:fs';
import { Agent, get, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

/** The headers time limit of the server under test (`MOCKVIDEO_HEADERS_TIMEOUT_MS`), in milliseconds. */
const HEADERS_TIMEOUT_MS = 1500;
const CONNECTIONS = 1000;

/** This process's soft limit of open files (Node raises it to the hard limit at start). */
function openFilesLimit(): number {
  const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return !line || line[1] === 'unlimited' ? Infinity : Number(line[1]);
}
// Each side holds one descriptor per connection, plus what vitest and the server already hold.
const enoughFiles = openFilesLimit() >= 2200;
if (!enoughFiles)
  console.warn(
    `[connections] Skipping the ${CONNECTIONS} keep-alive connections test: this process may open only ${openFilesLimit()} files (needs 2,200). Raise the hard limit (ulimit -Hn) to run it.`,
  );

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet'], {
    env: { MOCKVIDEO_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) },
  });
});
afterAll(async () => {
  await server.stop();
});

/** GET `path` through `agent`; resolves with the status, the body and whether the socket was reused. */
function getVia(
  agent: Agent,
  path: string,
): Promise<{ status: number; body: string; socket: Socket; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(`${server.url}${path}`, { agent }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body, socket: req.socket as Socket, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
  });
}

/** Milliseconds for a new client (own connection) to get `path`, and its status. */
async function timedFetch(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(5000) });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe(`${CONNECTIONS} keep-alive connections`, () => {
  it.skipIf(!enoughFiles)(
    'are all served, twice each on the same sockets, and a new client is still answered at once',
    async () => {
      const started = performance.now();
      const agent = new Agent({
        keepAlive: true,
        maxSockets: CONNECTIONS,
        maxFreeSockets: CONNECTIONS,
        scheduling: 'fifo',
      });
      try {
        const path = clientPath('meta/setting');
        const first = await Promise.all(Array.from({ length: CONNECTIONS }, () => getVia(agent, path)));
        expect(first.filter((r) => r.status === 200)).toHaveLength(CONNECTIONS);
        const sockets = new Set(first.map((r) => r.socket));
        expect(sockets.size).toBe(CONNECTIONS);
        // The server holds them all open: one descriptor each.
        expect(readdirSync(`/proc/${server.child.pid}/fd`).length).toBeGreaterThanOrEqual(CONNECTIONS);

        const fresh = await timedFetch(clientPath('meta/cp'));
        expect(fresh.status).toBe(200);
        expect(fresh.ms).toBeLessThan(3000); // room for a loaded machine; a connection limit would hold it 20 s

        const second = await Promise.all(Array.from({ length: CONNECTIONS }, () => getVia(agent, path)));
        expect(second.filter((r) => r.status === 200)).toHaveLength(CONNECTIONS);
        expect(second.every((r) => r.reused && sockets.has(r.socket))).toBe(true);
        expect(second[0]!.body).toBe(first[0]!.body);
      } finally {
        agent.destroy();
      }
      expect(performance.now() - started).toBeLessThan(20_000);
      // Once they are closed, the server is back to its few descriptors.
      const deadline = Date.now() + 5000;
      while (readdirSync(`/proc/${server.child.pid}/fd`).length > 100 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(readdirSync(`/proc/${server.child.pid}/fd`).length).toBeLessThan(100);
      expect((await timedFetch(clientPath('meta/cp'))).status).toBe(200);
    },
    30_000,
  );
});

describe('a slowloris client (headers one byte a second)', () => {
  it(`is cut off within the headers time limit (${HEADERS_TIMEOUT_MS} ms here) while other clients keep getting 200`, async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const opened = performance.now();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(`GET ${clientPath('meta/cp')} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
    const drip = setInterval(() => socket.writable && socket.write('a'), 1000);
    const others: number[] = [];
    let done = false;
    const normal = (async () => {
      while (!done) {
        others.push((await timedFetch(clientPath('meta/plugin'))).status);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      const after = await Promise.race([
        closed,
        new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 8000)),
      ]);
      // Node checks every second (connectionsCheckingInterval): cut between the limit and a second later.
      expect(after).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(after).toBeLessThan(HEADERS_TIMEOUT_MS + 2500);
      expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      clearInterval(drip);
      socket.destroy();
      done = true;
      await normal;
    }
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(others.every((status) => status === 200)).toBe(true);
  }, 15_000);
});
