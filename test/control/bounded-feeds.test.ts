import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

/** Resident memory of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** Device requests answered in `ms` by `clients` keep-alive clients on 127.0.0.1, one request at a time each. */
async function deviceLoad(url: string, clients: number, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const path = clientPath('meta/setting');
  const until = Date.now() + ms;
  let answered = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      request(`${url}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) answered++;
          resolve();
        });
      })
        .on('error', reject)
        .end();
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) await one();
    }),
  );
  agent.destroy();
  return answered;
}

/** Opens `GET /__mockvideo/events` and never reads what comes: resolves with the socket and the status line once it arrives. */
function neverReadingStream(url: string): Promise<{ socket: Socket; status: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET /__mockvideo/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`),
    );
    socket.setNoDelay(true);
    socket.once('data', (chunk) => {
      socket.pause(); // from now on nothing is read: the kernel buffers fill, then mockvideo's
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 0) });
    });
    socket.on('error', () => undefined);
    socket.once('close', () => reject(new Error('closed before answering')));
    setTimeout(() => reject(new Error('no answer')), 5000).unref();
  });
}

let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('the event stream is bounded (issue 34, item 1)', () => {
  it('30 never-reading streams for 20 s under device load: at most 16 open, 429 past them; RSS grows < 150 MB; throughput >= 50% of without', async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    const pid = server.child.pid!;
    await deviceLoad(server.url, 4, 1000); // warm-up
    const without = await deviceLoad(server.url, 4, 4000);
    const rssBefore = rssOf(pid);

    const streams = await Promise.all(Array.from({ length: 30 }, () => neverReadingStream(server!.url)));
    const statuses = streams.map((s) => s.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(16);
    expect(statuses.filter((s) => s === 429)).toHaveLength(14);

    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 250);
    const withStreams = await deviceLoad(server.url, 4, 20_000);
    clearInterval(sampler);
    for (const { socket } of streams) socket.destroy();

    const growthMb = (peak - rssBefore) / 1024 / 1024;
    const ratio = withStreams / 20_000 / (without / 4000);
    console.log(
      `[bounded-feeds] ${(without / 4).toFixed(0)} req/s without streams, ${(withStreams / 20).toFixed(0)} with 30 never-reading streams (${(ratio * 100).toFixed(0)}%); RSS growth ${growthMb.toFixed(1)} MB`,
    );
    expect(growthMb).toBeLessThan(150);
    expect(ratio).toBeGreaterThanOrEqual(0.5);
    expect((await fetch(`${server.url}/__mockvideo/health`)).status).toBe(200);
  }, 90_000);

  it('a stream that reads gets each new journal entry as a request event', async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    const controller = new AbortController();
    const events = await fetch(`${server.url}/__mockvideo/events`, { signal: controller.signal });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    await fetch(`${server.url}${clientPath('meta/cp')}`);
    let text = '';
    while (!text.includes('event: request')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/event: request\ndata: \{"id":1,/);
    controller.abort();
  }, 30_000);
});
