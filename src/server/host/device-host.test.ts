import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { routeOf, type Answer, type Plan } from '../../routes/index.js';
import type { ServerContext } from '../context.js';
import { deviceListener } from './device-host.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A Node host whose routes answer `/api/g1/meta/upgrade?n=<i>` with `answers[i]`. */
async function hostOf(answers: Answer[]): Promise<string> {
  const route = routeOf('/api/g1/meta/upgrade');
  const routes = ({ query }: { query: string }): Plan => ({
    kind: 'answer',
    route,
    findings: [],
    delayMs: 0,
    answer: answers[Number(query.slice(2))]!,
  });
  server = createServer(
    deviceListener({
      context: {} as ServerContext,
      routes,
      adminApp: () => (_req, res) => void res.writeHead(404).end(),
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('deviceListener', () => {
  it('sends each answer its own headers and its body as UTF-8 (as TextEncoder writes it), also when answers share a body text or body bytes', async () => {
    const text = `{"title":"Café ✓ 😀","lone":"\ud800"}`;
    const long = '✓'.repeat(30_000); // 30,000 characters, 90,000 bytes: sent as a second buffer
    const answers: Answer[] = [
      {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-mockvideo-scenario': 'one' },
        body: text,
      },
      {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-mockvideo-scenario': 'two' },
        body: `${text.slice(0, 5)}${text.slice(5)}`,
      },
      { status: 201, headers: { 'content-type': 'text/plain' }, body: long },
      { status: 200, headers: { 'content-type': 'text/plain', 'x-mockvideo-scenario': 'two' }, body: long },
      { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0, 255, 1]) },
      // Recordings: the same bytes in two answers (shared once encoded), and bytes whose latin1 reading is the text of another answer.
      {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-mockvideo-scenario': 'recorded-1' },
        body: new TextEncoder().encode(text),
      },
      {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-mockvideo-scenario': 'recorded-2' },
        body: new TextEncoder().encode(text),
      },
      { status: 200, headers: { 'content-type': 'text/plain' }, body: 'caf\u00e9' },
      {
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      },
    ];
    const url = await hostOf(answers);
    for (let round = 0; round < 2; round++) {
      for (const [i, answer] of answers.entries()) {
        const response = await fetch(`${url}/api/g1/meta/upgrade?n=${i}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        const expected = Buffer.from(
          typeof answer.body === 'string' ? new TextEncoder().encode(answer.body) : answer.body,
        );
        expect(response.status).toBe(answer.status);
        expect(response.headers.get('x-mockvideo-scenario')).toBe(answer.headers['x-mockvideo-scenario'] ?? null);
        expect(response.headers.get('content-length')).toBe(String(expected.byteLength));
        expect(bytes.equals(expected)).toBe(true);
      }
    }
  });
});

describe('deviceListener: what the wire cannot carry (issue 39, H1, H2, L5)', () => {
  it('sends headers the wire cannot carry percent-encoded or not at all, 204 and 304 without body or content-length, and a 1xx as its 500', async () => {
    const url = await hostOf([
      { status: 200, headers: { 'x-odd': 'line\nfeed\u0000日本', 'bad name': 'x', 'x-ok': 'caf\u00e9' }, body: '{}' },
      { status: 204, headers: {}, body: 'never sent' },
      { status: 304, headers: { etag: '"a"' }, body: '' },
      { status: 101, headers: {}, body: '' },
    ]);
    const odd = await fetch(`${url}/api/g1/meta/upgrade?n=0`);
    expect(odd.status).toBe(200);
    expect(odd.headers.get('x-odd')).toBe('line%0Afeed%00%E6%97%A5%E6%9C%AC');
    expect([...odd.headers.keys()].filter((name) => name.includes('bad'))).toEqual([]);
    // Latin-1 goes as it is (one byte per character).
    expect(odd.headers.get('x-ok')).toBe('caf\u00e9');
    for (const [n, status] of [
      [1, 204],
      [2, 304],
    ]) {
      const response = await fetch(`${url}/api/g1/meta/upgrade?n=${n}`);
      expect([response.status, response.headers.get('content-length'), await response.text()]).toEqual([
        status,
        null,
        '',
      ]);
    }
    const informational = await fetch(`${url}/api/g1/meta/upgrade?n=3`);
    expect(informational.status).toBe(500);
    expect(await informational.json()).toEqual({
      error: 'mockvideo failed to answer: an answer with HTTP status 101, which is no final status',
      code: 'MV_INTERNAL',
    });
    // And the host goes on.
    expect((await fetch(`${url}/api/g1/meta/upgrade?n=0`)).status).toBe(200);
  });
});
