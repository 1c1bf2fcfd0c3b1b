import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { journalViewOf, type JournalView } from '../journal/journal-view.js';
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

describe('recording proxy: when the client is answered', () => {
  /** A store whose writes finish only when `finish()` is called; `names` of the recordings handed over. */
  function heldStore() {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const names: string[] = [];
    return { names, finish, store: () => ({ name: `meta-cp/${String(names.push('x') - 1).padStart(3, '0')}.json`, written: done }) };
  }

  it('without responseHeaders: answered before the recording is written; drain() waits for the write, the log comes after it', async () => {
    const upstream = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')));
    const held = heldStore();
    const log: ProxyLogEntry[] = [];
    const recorded: string[] = [];
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: held.store, onRecorded: (r) => recorded.push(r.name), onExchange: (e) => log.push(e) });
    const front = await listen(createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())));
    try {
      // The write never finishes until told: the answer comes anyway.
      expect(await get(`${front}/api/g1/meta/cp?_region=IN`)).toBe(200);
      expect(held.names).toHaveLength(1);
      expect(recorded).toEqual([]);
      expect(log).toEqual([]);
      let drained = false;
      const draining = proxy.drain().then(() => (drained = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(drained).toBe(false);
      held.finish();
      await draining;
      expect(recorded).toEqual(['meta-cp/000.json']);
      expect(log).toMatchObject([{ status: 200, recorded: 'meta-cp/000.json' }]);
      expect(log[0]!.lost).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });

  it('with responseHeaders (they say what became of the recording): the answer waits for the write', async () => {
    const upstream = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')));
    const held = heldStore();
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: held.store, responseHeaders: { recorded: { 'x-mockvideo-match': 'recorded' } } });
    const front = await listen(createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())));
    try {
      let answered = false;
      const answer = get(`${front}/api/g1/meta/cp?_region=IN`).then((status) => ((answered = true), status));
      while (!held.names.length) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBe(false);
      held.finish();
      expect(await answer).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('a write that fails after the answer is reported as lost in the log, with its code', async () => {
    const upstream = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')));
    const log: ProxyLogEntry[] = [];
    const failing = () => ({ name: 'meta-cp/000.json', written: Promise.reject(Object.assign(new Error('[mockvideo] Failed to write the recording meta-cp/000.json: ENOSPC'), { code: 'ENOSPC' })) });
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: failing, onExchange: (e) => log.push(e) });
    const front = await listen(createServer((req, res) => proxy.middleware(req, res, () => res.writeHead(404).end())));
    try {
      expect(await get(`${front}/api/g1/meta/cp?_region=IN`)).toBe(200);
      await proxy.drain();
      expect(log).toMatchObject([{ status: 200, recorded: undefined, note: 'NOT RECORDED: ENOSPC', lost: { code: 'ENOSPC' } }]);
      // And the proxy goes on answering.
      expect(await get(`${front}/api/g1/meta/cp?_region=IN`)).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('the journal view (redacted) is on the response when it closes, for a recording written after the answer and for a passthrough', async () => {
    const upstream = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-echo': 'secret-token-1234' }).end('{"token":"secret-token-1234"}')));
    const held = heldStore();
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: held.store, only: ['meta/cp'] });
    const atClose: Array<JournalView | undefined> = [];
    const front = await listen(
      createServer((req, res) => {
        // As the device host reads it: when the response closes.
        res.once('close', () => atClose.push(journalViewOf(res)));
        proxy.middleware(req, res, () => res.writeHead(404).end());
      }),
    );
    try {
      // Recorded (its write still pending), then passed through (meta/plugin is not in `only`).
      expect(await get(`${front}/api/g1/meta/cp?_st=secret-token-1234`)).toBe(200);
      expect(await get(`${front}/api/g1/meta/plugin?_st=secret-token-1234`)).toBe(200);
      while (atClose.length < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(atClose.every((view) => view !== undefined)).toBe(true);
      expect(JSON.stringify(atClose)).not.toContain('secret-token-1234');
      expect(atClose[0]!.responseBody).toContain('<SERVICE_TOKEN>');
      held.finish();
      await proxy.drain();
    } finally {
      await proxy.close();
    }
  });
});
