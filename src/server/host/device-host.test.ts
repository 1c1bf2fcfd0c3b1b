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
    deviceListener({ context: {} as ServerContext, routes, host: () => (_req, res) => void res.writeHead(404).end() }),
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
