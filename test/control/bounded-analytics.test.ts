import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';

/** Resident memory of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const MiB = 1024 * 1024;

describe('the analytics sink is bounded in bytes (issue 34, item 2)', () => {
  it('300 posts of ~1 MB: oversize records get 413, the rest are kept within 8 MiB; RSS grows < 200 MB; every listing page answers at once and holds at most 2 MiB', async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    const sink = `${server.url}/__mockvideo/analytics`;
    const pid = server.child.pid!;
    const rssBefore = rssOf(pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);

    // Even posts: one record of ~1 MB (over the 64 KiB per record: 413). Odd posts: 16 records of ~62 KB (kept).
    const big = JSON.stringify({ type: 'click', _device: 'x'.repeat(1_000_000) });
    const batch = JSON.stringify(
      Array.from({ length: 16 }, (_, i) => ({ type: 'click', _device: `${i}`.padEnd(62_000, 'y') })),
    );
    const statuses: number[] = [];
    for (let start = 0; start < 300; start += 4) {
      statuses.push(
        ...(await Promise.all(
          [0, 1, 2, 3].map(async (k) => {
            const response = await fetch(sink, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: (start + k) % 2 ? batch : big,
            });
            const body = await response.json();
            if (response.status === 413)
              expect(body.error).toMatch(/at most 65536 bytes\. Nothing of this body was kept/);
            return response.status;
          }),
        )),
      );
    }
    clearInterval(sampler);
    expect(statuses.filter((s) => s === 413)).toHaveLength(150);
    expect(statuses.filter((s) => s === 200)).toHaveLength(150);

    // A body over 1 MiB: 413 with a clear body, not a 500.
    const huge = await fetch(sink, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'z'.repeat(2 * MiB) }),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toMatch(/over 1048576 bytes/);

    // Every page, oldest first through ?after=: bounded in bytes and count; all together within the store's 8 MiB.
    let after = 0;
    let kept = 0;
    let bytes = 0;
    let pages = 0;
    for (;;) {
      const started = performance.now();
      const response = await fetch(`${sink}?after=${after}&limit=1000`);
      const text = await response.text();
      expect(performance.now() - started).toBeLessThan(2000);
      expect(text.length).toBeLessThan(2 * MiB + 64 * 1024);
      const page = JSON.parse(text) as {
        records: Array<{ id: number; record: unknown }>;
        next: number | null;
        total: number;
      };
      kept += page.records.length;
      for (const entry of page.records) bytes += JSON.stringify(entry.record).length;
      pages++;
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages).toBeGreaterThan(1);
    expect(kept).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(8 * MiB);
    const newest = await fetch(sink);
    expect((await newest.text()).length).toBeLessThan(2 * MiB + 64 * 1024);

    const growthMb = (peak - rssBefore) / MiB;
    console.log(
      `[bounded-analytics] RSS growth ${growthMb.toFixed(1)} MB over 300 posts of ~1 MB; ${kept} records kept in ${pages} pages`,
    );
    expect(growthMb).toBeLessThan(200);
    expect((await fetch(`${server.url}/__mockvideo/health`)).status).toBe(200);
  }, 120_000);
});

describe('admin listings are paged (issue 34, item 2)', () => {
  it('GET /__mockvideo/requests gives the newest entries, or those after an id, at most ?limit=; a bad limit is a 400', async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    for (let i = 0; i < 12; i++) await (await fetch(`${server.url}/api/g1/meta/cp`)).text();
    const list = async (search: string) =>
      (await fetch(`${server!.url}/__mockvideo/requests${search}`)).json() as Promise<{
        requests: Array<{ id: number }>;
        total: number;
        next: number | null;
      }>;
    const newest = await list('?limit=5');
    expect([newest.requests.map((r) => r.id), newest.total, newest.next]).toEqual([[8, 9, 10, 11, 12], 12, null]);
    const first = await list('?after=0&limit=5');
    expect([first.requests.map((r) => r.id), first.next]).toEqual([[1, 2, 3, 4, 5], 5]);
    const last = await list('?after=10&limit=5');
    expect([last.requests.map((r) => r.id), last.next]).toEqual([[11, 12], null]);
    expect((await list('')).requests).toHaveLength(12);
    expect((await fetch(`${server.url}/__mockvideo/requests?limit=0`)).status).toBe(400);
  });
});

describe('planned faults are bounded', () => {
  it('refuses the 1,001st planned fault with 429 until the faults are cleared', async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    const plan = () =>
      fetch(`${server!.url}/__mockvideo/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'meta/cp', kind: 'delay', ms: 1, times: 1 }),
      });
    for (let start = 0; start < 1000; start += 50) {
      const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await plan()).status));
      expect(statuses.every((s) => s === 201)).toBe(true);
    }
    const refused = await plan();
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/1000 faults are planned already/);
    await fetch(`${server.url}/__mockvideo/faults`, { method: 'DELETE' });
    expect((await plan()).status).toBe(201);
  }, 60_000);
});
