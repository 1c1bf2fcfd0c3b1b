// Issue 21: a hostile but ordinary upstream on 127.0.0.1 (ordinary cookies, the token echoed in ten
// encodings, a gzip bomb) recorded from a client that sends cookies. Every recording validates and
// replays strictly; no raw or encoded secret is on disk, in the journal, in the HAR export or in the
// log; the recorder's memory stays bounded and it keeps answering /__mockvideo/health.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operationOfPath } from '../../src/contract/index.js';
import { runCli, startCli } from '../support/cli.js';
import { getBytes, recordingFiles, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

/** A made-up token with the characters that encode differently: `/ + = & %` and a space. */
const TOKEN = 'made-up/tok+en=v&x%y 42';
const CLIENT_SESSION = 'made-up-client-session-1';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The ten encodings the hostile upstream echoes the token in (written out here, not taken from the code). */
const ECHOES: Record<string, string> = {
  raw: TOKEN,
  percentUpper: encodeURIComponent(TOKEN),
  percentLower: encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  form: encodeURIComponent(TOKEN).replace(/%20/g, '+'),
  php: TOKEN.replace(/\//g, '\\/'),
  gson: TOKEN.replace(/[=&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  unicode: TOKEN.split('')
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)
    .join(''),
  base64: b64(TOKEN),
  base64url: b64(TOKEN).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  hex: Buffer.from(TOKEN).toString('hex'),
};
const FORBIDDEN = [...Object.values(ECHOES), CLIENT_SESSION, 'sid=x1y2z3'];

function holds(text: string): string[] {
  return FORBIDDEN.filter((form) => text.includes(form));
}

/** The client's path for `operation` with the made-up token and, for the bomb, a marker parameter. */
const pathOf = (operation: (typeof OPERATION_NAMES)[number], extra = '') =>
  `${clientPathWith(operation, { _st: encodeURIComponent(TOKEN) })}${extra}`;

let hostile: Server;
let hostileUrl: string;
/** The headers the hostile upstream received, per request. */
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // 256 MiB of spaces: about 250 KiB of gzip.
  const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20));
  // Takes the ordinary answer from the shared fake service, then adds cookies and echoes.
  hostile = createServer((req, res) => {
    received.push(req.headers);
    const target = req.url ?? '/';
    if (target.includes('bomb=1')) {
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        })
        .end(bomb);
      return;
    }
    void fetch(`${upstream.url}${target}`).then(async (answer) => {
      let body = await answer.text();
      if (operationOfPath(target.split('?')[0]!) === 'ad_config')
        body = body.replace(
          '"data":{',
          `"data":{"echoes":{${Object.entries(ECHOES)
            .map(([k, v]) => `"${k}":"${v}"`)
            .join(',')}},`,
        );
      res.writeHead(
        answer.status,
        [
          ['content-type', 'application/json; charset=utf-8'],
          ['set-cookie', 'sid=x1y2z3; Path=/api/g1'],
          ['set-cookie', 'ab=true; Path=/'],
          ['set-cookie', 'region=IN; Path=/'],
          ['set-cookie', 'lang=en_IN; Path=/'],
          ['connection', 'x-upstream-hop'],
          ['x-upstream-hop', 'per-hop'],
          ...Object.entries(ECHOES).map(([k, v]): [string, string] => [`x-echo-${k.toLowerCase()}`, v]),
        ].flat(),
      );
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())));

/** GET through node:http, so the request may carry a `Connection` header naming another header. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    })
      .on('error', reject)
      .end();
  });
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(/\d+/.exec(line)![0]) / 1024;
}

describe('recording a hostile upstream (issue 21)', () => {
  it('writes only valid, strictly replayable recordings with no secret anywhere, bounded in memory, always answering health', async () => {
    const dir = tempDir();
    const recorder = await startCli([
      'record',
      '--upstream',
      hostileUrl,
      '--out',
      dir,
      '--port',
      '0',
      '--max-body-size',
      '16',
    ]);
    let maxRss = 0;
    let slowestHealthMs = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        maxRss = Math.max(maxRss, rssMiB(recorder.child.pid!));
        const started = performance.now();
        const health = await fetch(`${recorder.url}/__mockvideo/health`);
        expect(health.status).toBe(200);
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const cookies = {
      cookie: `ab=true; region=IN; lang=en_IN; sid=${CLIENT_SESSION}`,
      connection: 'keep-alive, x-client-hop',
      'x-client-hop': 'per-hop',
    };
    let journal: string;
    let har: string;
    try {
      for (const operation of OPERATION_NAMES) {
        const answer = await rawGet(`${recorder.url}${pathOf(operation)}`, cookies);
        expect(answer.status, operation).toBe(200);
        expect(answer.headers['x-upstream-hop'], 'a header named in the upstream Connection header').toBeUndefined();
        expect(answer.headers['set-cookie']).toContain('sid=x1y2z3; Path=/api/g1');
      }
      const bomb = await rawGet(`${recorder.url}${pathOf('meta/cp', '&bomb=1')}`, cookies);
      expect(bomb.status).toBe(502);
      expect(JSON.parse(bomb.body)).toMatchObject({
        cause: 'EBODYTOOLARGE',
        error: expect.stringContaining('--max-body-size limit of 16 MiB'),
      });
      journal = await (await fetch(`${recorder.url}/__mockvideo/requests`)).text();
      const detail = JSON.parse(journal).requests.map((r: { id: number }) => r.id);
      for (const id of detail) journal += await (await fetch(`${recorder.url}/__mockvideo/requests/${id}`)).text();
      har = await (await fetch(`${recorder.url}/__mockvideo/requests.har`)).text();
    } finally {
      watching = false;
      await watch;
      expect(await recorder.stop('SIGINT')).toBe(0);
    }
    expect(
      received.every((headers) => headers['x-client-hop'] === undefined),
      'a header named in the client Connection header',
    ).toBe(true);
    expect(JSON.parse(har).log.entries).toHaveLength(OPERATION_NAMES.length + 1);
    expect(holds(journal), 'journal').toEqual([]);
    expect(holds(har), 'requests.har').toEqual([]);
    expect(holds(recorder.stdout() + recorder.stderr()), 'log').toEqual([]);
    expect(recorder.stdout()).toMatch(/redacted .*_st in response\.body \(base64\)/);

    const files = recordingFiles(dir);
    expect(files).toHaveLength(OPERATION_NAMES.length);
    for (const file of files) {
      expect(holds(file.text), file.name).toEqual([]);
      const stored = JSON.parse(file.text);
      expect(stored.request.path).toMatch(/^\/api\/g1\//);
      expect(stored.request.headers.cookie).toBe('ab=true; region=IN; lang=en_IN; sid=<REDACTED>');
      expect(stored.response.headers['set-cookie']).toBe(
        'sid=<REDACTED>; Path=/api/g1, ab=true; Path=/, region=IN; Path=/, lang=en_IN; Path=/',
      );
    }
    expect((await runCli(['validate', dir])).code).toBe(0);
    const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0', '--no-watch']);
    try {
      for (const operation of OPERATION_NAMES) {
        const { status, headers } = await getBytes(`${replay.url}${clientPathWith(operation, OTHER_SESSION)}`);
        expect(status, operation).toBe(200);
        expect(headers.get('x-mockvideo-match')).toBe('exact');
      }
    } finally {
      await replay.stop('SIGINT');
    }
    expect(maxRss).toBeLessThan(300);
    // A liveness check, not a speed test: the event loop was never blocked for long (the bound is generous).
    expect(slowestHealthMs).toBeLessThan(2500);
    console.log(`recording-safety: max RSS ${maxRss.toFixed(0)} MiB, slowest health ${slowestHealthMs.toFixed(0)} ms`);
  });

  it('import finds a --secret-value in a HAR that already says <SERVICE_TOKEN>, and always redacts values under secret names', async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          {
            startedDateTime: '2026-01-01T00:00:00.000Z',
            time: 1,
            request: {
              method: 'GET',
              url: `http://x.example${clientPathWith('meta/cp', { _st: '%3CSERVICE_TOKEN%3E' })}`,
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [],
              queryString: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'x-echo', value: b64(TOKEN) }],
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
              content: {
                size: 0,
                mimeType: 'application/json',
                text: `{"data":{"a":"${ECHOES.php}","_st":"short"},"msg":"OK","result":1}`,
              },
            },
            cache: {},
            timings: { send: 0, wait: 0, receive: 0 },
          },
        ],
      },
    };
    const file = join(tempDir(), 'session.har');
    writeFileSync(file, JSON.stringify(har));
    const out = tempDir();
    const result = await runCli(['import', file, '--out', out], { env: { MOCKVIDEO_SECRET_VALUE: TOKEN } });
    expect(result.code, result.stderr).toBe(0);
    const [recording] = recordingFiles(out);
    expect(holds(recording!.text)).toEqual([]);
    const stored = JSON.parse(recording!.text);
    expect(JSON.parse(stored.response.body).data).toEqual({ a: '<SERVICE_TOKEN>', _st: '<SERVICE_TOKEN>' });
    expect(stored.response.headers['x-echo']).toBe('<SERVICE_TOKEN>');
  });

  it('refuses loudly to record a secret that sits in a parameter of the match key, and exits 1', async () => {
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    const answer = await getBytes(
      `${recorder.url}${clientPathWith('meta/cp', { _st: 'made-up-token-in-two-places', _res: 'made-up-token-in-two-places' })}`,
    );
    expect(answer.status).toBe(200);
    expect(await recorder.stop('SIGINT')).toBe(1);
    expect(recorder.stderr()).toMatch(
      /\[mockvideo\] Refused to record GET \/api\/g1\/meta\/cp: _st in request\.query\._res \(raw\), and replacing it would change the match key/,
    );
    expect(recorder.stdout()).toMatch(/1 refused \(a secret where redacting it would break the recording\)/);
    expect(recordingFiles(dir)).toEqual([]);
  });

  it('a recorder killed with kill -9 leaves a lock that the next one takes over at once, saying so', async () => {
    const dir = tempDir();
    const first = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    const pid = first.child.pid!;
    expect(await first.stop('SIGKILL')).toBe(null);
    const started = Date.now();
    const second = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    try {
      // proper-lockfile alone would refuse for 10 s (until the lock's time stamp is stale).
      expect(Date.now() - started).toBeLessThan(8000);
      expect(second.stderr()).toContain(`Took over the lock on ${dir}: its owner, process ${pid}, is gone`);
    } finally {
      expect(await second.stop('SIGINT')).toBe(0);
    }
  });
});

describe('scenario limits from the command line (issue 21.7)', () => {
  it('validate names a scenario nested 5,000 deep and a 5,000-file extends chain in one line each, no stack trace', async () => {
    const dir = tempDir('mockvideo-scn-');
    writeFileSync(
      join(dir, 'deep.json'),
      `{"operations":{"ad_config":{"data":${'['.repeat(5000)}${']'.repeat(5000)}}}}`,
    );
    for (let i = 0; i < 5000; i++)
      writeFileSync(
        join(dir, `chain-${i}.json`),
        JSON.stringify({ extends: i ? `chain-${i - 1}` : 'default', operations: {} }),
      );
    const { code, stdout, stderr } = await runCli(['validate', dir], { timeoutMs: 60_000 });
    expect(code).toBe(1);
    expect(stdout + stderr).not.toMatch(/RangeError|Maximum call stack| {4}at /);
    expect(stdout).toMatch(/deep\.json: nested 65 levels deep or more, over the limit of 64/);
    expect(stdout.match(/extends chain is \d+ scenarios long/g)).toHaveLength(1);
    expect(stdout).toMatch(
      /chain-4999\.json at extends: its extends chain is 5001 scenarios long, over the limit of 32/,
    );
  });
});
