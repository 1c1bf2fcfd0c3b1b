import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../normalise/index.js';
import { createRecordingProxy, type ProxyLogEntry } from './proxy.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject).end();
  });
}

describe('recording proxy memory budget (issue 21.5)', () => {
  it('answers 503 instead of holding more upstream bytes in flight than its budget', async () => {
    // 600 KB answers, sent in two halves 150 ms apart, so that five hold 1.5 MB at once.
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(Buffer.alloc(300_000, 0x20));
        setTimeout(() => res.end(Buffer.alloc(300_000, 0x20)), 150);
      }),
    );
    const log: ProxyLogEntry[] = [];
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, maxBodyBytes: 700_000, maxInFlightBytes: 1_400_000, policy: DEFAULT_POLICY, store: () => ({ name: 'x.json', written: Promise.resolve() }), onExchange: (e) => log.push(e) });
    const front = await listen(createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())));
    try {
      const statuses = await Promise.all([1, 2, 3, 4, 5].map((i) => get(`${front}/api/g1/meta/cp?n=${i}`)));
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(log.find((e) => e.status === 503)?.note).toBe('upstream answers in flight over the memory budget');
      // The budget is given back: one more request alone goes through.
      expect(await get(`${front}/api/g1/meta/cp?n=6`)).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});
