import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PrefixedError } from '../errors.js';
import { DEFAULT_POLICY } from '../normalise/index.js';
import { routeOf } from '../normalise/path.js';
import type { ProxyLogEntry } from './exchange-log.js';
import { createRecordingProxy, type PassAnswer, type RecordingProxy } from './proxy.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the device host does for a request the routes pass on: forward it with the route of its path; `sent` hears what the proxy says it sent. */
function passOn(proxy: RecordingProxy, marked = false, sent?: (answer: PassAnswer) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const [path, query = ''] = req.url!.split('?', 2) as [string, string?];
    const request = { method: req.method!, path, query, origin: 'http://x', headers: req.headers };
    void proxy.forward(request, res, { kind: 'pass', route: routeOf(path), findings: [], marked }).then(sent);
  };
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('recording proxy memory budget (issues 21.5, 34.4)', () => {
  /** A store whose writes finish only when `finish()` is called. */
  function heldWrites() {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let count = 0;
    return {
      finish,
      count: () => count,
      store: () => ({ name: `meta-cp/${String(count++).padStart(3, '0')}.json`, written: done }),
    };
  }

  it('holds a request back while the bytes waiting for the disk fill the budget, and never answers for the upstream', async () => {
    let asked = 0;
    const upstream = await listen(
      createServer((_req, res) => {
        asked++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(600_000, 0x20));
      }),
    );
    const log: ProxyLogEntry[] = [];
    const writes = heldWrites();
    const proxy = createRecordingProxy({
      upstream,
      timeoutMs: 5000,
      maxBodyBytes: 700_000,
      maxInFlightBytes: 1_400_000,
      policy: DEFAULT_POLICY,
      store: writes.store,
      onExchange: (e) => log.push(e),
    });
    const front = await listen(createServer(passOn(proxy)));
    try {
      // Two answers whose recordings wait for the disk hold 1.2 MB; a third reserves the size of the
      // last answer (600 KB), which no longer fits.
      for (const n of [1, 2]) expect(await get(`${front}/api/g1/meta/cp?n=${n}`)).toBe(200);
      let third: number | undefined;
      const waiting = get(`${front}/api/g1/meta/cp?n=3`).then((status) => (third = status));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Held back, not refused: the upstream was not asked yet and the client has no answer.
      expect(third).toBeUndefined();
      expect(asked).toBe(2);
      writes.finish();
      expect(await waiting).toBe(200);
      await proxy.drain();
      expect(log.map((e) => e.status)).toEqual([200, 200, 200]);
      expect(writes.count()).toBe(3);
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
    return {
      names,
      finish,
      store: () => ({ name: `meta-cp/${String(names.push('x') - 1).padStart(3, '0')}.json`, written: done }),
    };
  }

  it('without marks: answered before the recording is written; drain() waits for the write, the log comes after it', async () => {
    const upstream = await listen(
      createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')),
    );
    const held = heldStore();
    const log: ProxyLogEntry[] = [];
    const recorded: string[] = [];
    const proxy = createRecordingProxy({
      upstream,
      timeoutMs: 5000,
      policy: DEFAULT_POLICY,
      store: held.store,
      onRecorded: (r) => recorded.push(r.name),
      onExchange: (e) => log.push(e),
    });
    const front = await listen(createServer(passOn(proxy)));
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

  it('with marks (they say what became of the recording): the answer waits for the write', async () => {
    const upstream = await listen(
      createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')),
    );
    const held = heldStore();
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: held.store });
    const front = await listen(createServer(passOn(proxy, true)));
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
    const upstream = await listen(
      createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}')),
    );
    const log: ProxyLogEntry[] = [];
    const failing = () => ({
      name: 'meta-cp/000.json',
      written: Promise.reject(
        Object.assign(new PrefixedError('Failed to write the recording meta-cp/000.json: ENOSPC'), {
          code: 'ENOSPC',
        }),
      ),
    });
    const proxy = createRecordingProxy({
      upstream,
      timeoutMs: 5000,
      policy: DEFAULT_POLICY,
      store: failing,
      onExchange: (e) => log.push(e),
    });
    const front = await listen(createServer(passOn(proxy)));
    try {
      expect(await get(`${front}/api/g1/meta/cp?_region=IN`)).toBe(200);
      await proxy.drain();
      expect(log).toMatchObject([
        {
          status: 200,
          recorded: undefined,
          note: 'NOT RECORDED: ENOSPC',
          lost: { code: 'ENOSPC', message: 'Failed to write the recording meta-cp/000.json: ENOSPC' },
        },
      ]);
      // And the proxy goes on answering.
      expect(await get(`${front}/api/g1/meta/cp?_region=IN`)).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('says what it sent with its journal view (redacted), for a recording written after the answer and for a passthrough', async () => {
    const upstream = await listen(
      createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-echo': 'secret-token-1234' })
          .end('{"token":"secret-token-1234"}'),
      ),
    );
    const held = heldStore();
    const proxy = createRecordingProxy({
      upstream,
      timeoutMs: 5000,
      policy: DEFAULT_POLICY,
      store: held.store,
      only: ['meta/cp'],
    });
    const atClose: Array<PassAnswer['view'] | undefined> = [];
    const front = await listen(createServer(passOn(proxy, false, (sent) => atClose.push(sent.view))));
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
  it("keeps a long recorded body in its journal view as bytes: the upstream's own when nothing in it was redacted", async () => {
    const plain = `{"data":"${'x'.repeat(100_000)}"}`;
    const upstream = await listen(
      createServer((req, res) => {
        const body = req.url!.includes('echo') ? plain.replace('xxx', 'secret-token-1234') : plain;
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }),
    );
    const held = heldStore();
    const proxy = createRecordingProxy({ upstream, timeoutMs: 5000, policy: DEFAULT_POLICY, store: held.store });
    const views: Array<PassAnswer['view']> = [];
    const front = await listen(createServer(passOn(proxy, false, (sent) => views.push(sent.view))));
    try {
      expect(await get(`${front}/api/g1/meta/cp?_st=secret-token-1234`)).toBe(200);
      expect(await get(`${front}/api/g1/meta/cp?_st=secret-token-1234&echo=1`)).toBe(200);
      while (views.length < 2) await new Promise((resolve) => setImmediate(resolve));
      const [same, echoed] = views.map((view) => view.answerBody);
      expect(same).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(same as Uint8Array).toString()).toBe(plain);
      expect(echoed).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(echoed as Uint8Array).toString()).toBe(plain.replace('xxx', '<SERVICE_TOKEN>'));
      held.finish();
      await proxy.drain();
    } finally {
      await proxy.close();
    }
  });
});
