import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { eventually, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';

const GOOD_BODY = '{"data":{"end":[],"exit":[],"suspend":[]},"msg":"OK","result":1}';

/**
 * What the raw upstream writes on the socket for each operation, exactly (a misbehaving service);
 * a request whose `_nonce` is `slow-headers` or `slow-body` gets that answer instead.
 */
const ANSWERS: Record<string, string | ((socket: import('node:net').Socket) => void)> = {
  // Headers that never come: the connection stays open and silent.
  'slow-headers': () => undefined,
  // Headers at once, then one byte of the body every 50 ms without end: never idle long enough for
  // a timeout between chunks, so only a deadline on the whole answer stops it.
  'slow-body': (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"data":"');
    const timer = setInterval(() => socket.write('x'), 50);
    socket.on('close', () => clearInterval(timer));
  },
  // A well-behaved answer, to show the recorder still records after the misbehaviour.
  'localplay/diversion': `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${GOOD_BODY.length}\r\n\r\n${GOOD_BODY}`,
  ad_config: (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data":{"cut');
    setTimeout(() => socket.destroy(), 50);
  },
  'meta/cp':
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 12\r\n\r\nnot gzip!!!!',
  'meta/setting': 'HTTP/1.1 302 Found\r\nlocation: http://elsewhere.invalid/steal\r\ncontent-length: 0\r\n\r\n',
  // Declares 1,000 bytes, sends a complete-looking JSON body, then closes.
  'meta/plugin':
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"data":[],"msg":"OK","result":1}',
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
      const answer = ANSWERS[/[?&]_nonce=(slow-[a-z]+)/.exec(head)?.[1] ?? path.replace('/api/g1/', '')];
      head = '';
      if (typeof answer === 'function') answer(socket);
      else socket.end(answer ?? 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  out = tempDir();
  recorder = await startCli([
    'record',
    '--upstream',
    upstreamUrl,
    '--out',
    out,
    '--port',
    '0',
    '--upstream-timeout',
    '3',
  ]);
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
    [
      'invalid gzip',
      'meta/cp',
      'meta-cp',
      { cause: 'EBADENCODING', error: expect.stringContaining('does not decode as "gzip"') },
    ],
    ['a Content-Length that lies (more than is sent)', 'meta/plugin', 'meta-plugin', {}],
  ])('%s: a 502 JSON error naming the upstream, nothing written', async (_what, operation, folder, details) => {
    const answer = await get(operation);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toMatchObject({
      upstream: upstreamUrl,
      error: expect.stringContaining(upstreamUrl),
      ...details,
    });
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
    // The recording is written after the client is answered.
    await eventually(
      () =>
        recordingFiles(out)
          .map((f) => f.name)
          .join('\n'),
      /^localplay-recomm\//m,
      10_000,
    );
    const [file] = recordingFiles(out).filter((f) => f.name.startsWith('localplay-recomm'));
    expect(JSON.parse(file!.text).response.body).toBe(big.text);

    const limitedOut = tempDir();
    const limited = await startCli([
      'record',
      '--upstream',
      upstreamUrl,
      '--out',
      limitedOut,
      '--port',
      '0',
      '--max-body-size',
      '1',
    ]);
    try {
      const refused = await fetch(`${limited.url}${clientPath('localplay/recomm')}`);
      expect(refused.status).toBe(502);
      expect(await refused.json()).toMatchObject({
        cause: 'EBODYTOOLARGE',
        error: expect.stringContaining('--max-body-size'),
      });
      expect(recordingFiles(limitedOut)).toEqual([]);
    } finally {
      await limited.stop('SIGINT');
    }
  });

  it('keeps serving afterwards', async () => {
    expect((await fetch(`${recorder.url}/__mockvideo/health`)).status).toBe(200);
  });
});

describe('an upstream too slow for --upstream-timeout', () => {
  let slow: CliProcess;
  let slowOut: string;
  /** Everything in the recording folder but its lock: a partial or temporary file shows here too. */
  const written = () =>
    readdirSync(slowOut, { recursive: true, encoding: 'utf8' }).filter((name) => !name.startsWith('.mockvideo'));

  beforeAll(async () => {
    slowOut = tempDir();
    slow = await startCli([
      'record',
      '--upstream',
      upstreamUrl,
      '--out',
      slowOut,
      '--port',
      '0',
      '--upstream-timeout',
      '0.5',
    ]);
  });
  afterAll(async () => {
    await slow.stop('SIGINT');
  });

  it.each([
    ['headers that never come', 'slow-headers', 'UND_ERR_HEADERS_TIMEOUT'],
    ['a body that trickles in without end', 'slow-body', 'UND_ERR_BODY_TIMEOUT'],
  ])(
    '%s: a 504 JSON error at the deadline naming the upstream and --upstream-timeout, nothing written',
    async (_what, nonce, cause) => {
      const started = Date.now();
      const answer = await fetch(`${slow.url}${clientPathWith('localplay/diversion', { _nonce: nonce })}`, {
        signal: AbortSignal.timeout(5000),
      });
      expect(answer.status).toBe(504);
      expect(await answer.json()).toMatchObject({
        upstream: upstreamUrl,
        cause,
        error: expect.stringMatching(new RegExp(`${upstreamUrl}.*--upstream-timeout`)),
      });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(written()).toEqual([]);
    },
  );

  it('an upstream that answers in time afterwards is passed on and recorded', async () => {
    const answer = await fetch(`${slow.url}${clientPath('localplay/diversion')}`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(GOOD_BODY);
    await eventually(
      () =>
        recordingFiles(slowOut)
          .map((f) => f.name)
          .join('\n'),
      /^localplay-diversion\//m,
    );
    expect(recordingFiles(slowOut).map((f) => f.name)).toEqual([
      expect.stringMatching(/^localplay-diversion\/.*-000\.json$/),
    ]);
  });
});
