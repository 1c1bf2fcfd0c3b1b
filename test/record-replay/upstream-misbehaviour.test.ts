import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';

/** What the raw upstream writes on the socket for each operation, exactly (a misbehaving service). */
const ANSWERS: Record<string, string | ((socket: import('node:net').Socket) => void)> = {
  ad_config: (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data":{"cut');
    setTimeout(() => socket.destroy(), 50);
  },
  'meta/cp': 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 12\r\n\r\nnot gzip!!!!',
  'meta/setting': 'HTTP/1.1 302 Found\r\nlocation: http://elsewhere.invalid/steal\r\ncontent-length: 0\r\n\r\n',
  // Declares 1,000 bytes, sends a complete-looking JSON body, then closes.
  'meta/plugin': 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"data":[],"msg":"OK","result":1}',
  // A 10 MB answer.
  'localplay/recomm': (() => {
    const body = `{"data":[],"msg":"OK","result":1,"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
  })(),
};

let upstream: Server;
let upstreamUrl: string;
let out: string;
let recorder: CliProcess;

beforeAll(async () => {
  upstream = createServer((socket) => {
    // The proxy hangs up on bodies over its limit: a reset here is expected.
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      const path = /^GET ([^? ]+)/.exec(head)?.[1] ?? '';
      const answer = ANSWERS[path.replace('/api/g1/', '')];
      head = '';
      if (typeof answer === 'function') answer(socket);
      else socket.end(answer ?? 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  out = tempDir();
  recorder = await startCli(['record', '--upstream', upstreamUrl, '--out', out, '--port', '0', '--upstream-timeout', '3']);
});

afterAll(async () => {
  await recorder.stop('SIGINT');
  upstream.close();
  removeTempDirs();
});

const get = async (op: Parameters<typeof clientPath>[0]) => {
  const response = await fetch(`${recorder.url}${clientPath(op)}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

describe('an upstream that misbehaves while recording', () => {
  it.each<[string, Parameters<typeof clientPath>[0], string, Record<string, unknown>]>([
    ['a body cut off mid-way', 'ad_config', 'ad_config', {}],
    ['invalid gzip', 'meta/cp', 'meta-cp', { cause: 'EBADENCODING', error: expect.stringContaining('does not decode as "gzip"') }],
    ['a Content-Length that lies (more than is sent)', 'meta/plugin', 'meta-plugin', {}],
  ])('%s: a 502 JSON error naming the upstream, nothing written', async (_what, operation, folder, details) => {
    const answer = await get(operation);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toMatchObject({ upstream: upstreamUrl, error: expect.stringContaining(upstreamUrl), ...details });
    expect(recordingFiles(out).filter((f) => f.name.startsWith(`${folder}/`))).toEqual([]);
  });

  it('a redirect to another host is passed to the client as it came, never followed', async () => {
    const answer = await get('meta/setting');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://elsewhere.invalid/steal');
  });

  it('a 10 MB body is passed on and recorded whole; over --max-body-size it gets a 502 and nothing is written', async () => {
    const big = await get('localplay/recomm');
    expect(big.status).toBe(200);
    expect(big.text.length).toBeGreaterThan(10 * 1024 * 1024);
    const [file] = recordingFiles(out).filter((f) => f.name.startsWith('localplay-recomm'));
    expect(JSON.parse(file!.text).response.body).toBe(big.text);

    const limitedOut = tempDir();
    const limited = await startCli(['record', '--upstream', upstreamUrl, '--out', limitedOut, '--port', '0', '--max-body-size', '1']);
    try {
      const refused = await fetch(`${limited.url}${clientPath('localplay/recomm')}`);
      expect(refused.status).toBe(502);
      expect(await refused.json()).toMatchObject({ cause: 'EBODYTOOLARGE', error: expect.stringContaining('--max-body-size') });
      expect(recordingFiles(limitedOut)).toEqual([]);
    } finally {
      await limited.stop('SIGINT');
    }
  });

  it('keeps serving afterwards', async () => {
    expect((await fetch(`${recorder.url}/__mockvideo/health`)).status).toBe(200);
  });
});
