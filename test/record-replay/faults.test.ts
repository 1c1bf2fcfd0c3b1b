import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { getBytes, recordSession, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';
import { deadUrl, startUpstream, type Upstream } from '../support/upstream.js';

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
});
beforeEach(() => {
  upstream.switches = { delayMs: 0, fail: false, gzip: false, echoSecrets: false };
});
afterAll(async () => {
  removeTempDirs();
  await upstream.close();
});

/** GET with node:http, which does not decompress: the exact bytes and headers on the wire. */
function rawGet(
  url: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('upstream faults while recording', () => {
  it('upstream down: 502 JSON naming the upstream and the cause; nothing written', async () => {
    const dead = await deadUrl();
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', dead, '--out', dir, '--port', '0']);
    try {
      const { status, body } = await getBytes(`${recorder.url}${clientPath('meta/cp')}`);
      expect(status).toBe(502);
      const error = JSON.parse(body.toString());
      expect(error).toMatchObject({ upstream: dead, cause: 'ECONNREFUSED' });
      expect(error.error).toContain(dead);
    } finally {
      await recorder.stop('SIGINT');
    }
    expect(recordingFiles(dir)).toEqual([]);
  });

  it('upstream timing out: 504 with cause UND_ERR_HEADERS_TIMEOUT after --upstream-timeout; nothing written', async () => {
    upstream.switches.delayMs = 1500;
    const dir = tempDir();
    const recorder = await startCli([
      'record',
      '--upstream',
      upstream.url,
      '--out',
      dir,
      '--port',
      '0',
      '--upstream-timeout',
      '0.3',
    ]);
    try {
      const started = Date.now();
      const { status, body } = await getBytes(`${recorder.url}${clientPath('meta/cp')}`);
      expect(status).toBe(504);
      expect(Date.now() - started).toBeLessThan(4000); // --upstream-timeout 0.3, not the default 10 s
      expect(JSON.parse(body.toString())).toMatchObject({ upstream: upstream.url, cause: 'UND_ERR_HEADERS_TIMEOUT' });
    } finally {
      await recorder.stop('SIGINT');
    }
    expect(recordingFiles(dir)).toEqual([]);
  });

  it('5xx answers reach the client but are recorded only with --record-failures', async () => {
    upstream.switches.fail = true;
    const plain = await recordSession(upstream.url, [clientPath('meta/plugin')]);
    expect(plain.bodies[0]!.toString()).toBe('{"data":null,"msg":"busy","result":0}');
    expect(recordingFiles(plain.dir)).toEqual([]);
    const failures = await recordSession(upstream.url, [clientPath('meta/plugin')], ['--record-failures']);
    const files = recordingFiles(failures.dir);
    expect(files).toHaveLength(1);
    expect(JSON.parse(files[0]!.text).response).toMatchObject({
      status: 503,
      body: '{"data":null,"msg":"busy","result":0}',
    });
  });

  it('a gzip body goes to the client compressed and unchanged, and is stored decoded', async () => {
    upstream.switches.gzip = true;
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    let raw;
    try {
      raw = await rawGet(`${recorder.url}${clientPath('localplay/recomm')}`);
    } finally {
      await recorder.stop('SIGINT');
    }
    expect(raw.headers['content-encoding']).toBe('gzip');
    // Byte for byte one of the upstream's bodies (a delayed answer of the timeout test above may land after it).
    expect(upstream.sent.some((sent) => sent.equals(raw.body))).toBe(true);
    expect(gunzipSync(raw.body).toString()).toMatch(/^\{"data":\[/);
    const stored = JSON.parse(recordingFiles(dir)[0]!.text).response;
    expect(stored.headers['content-encoding']).toBeUndefined();
    expect(stored.body).toMatch(/^\{"data":\[/);
    expect(stored.body).toContain('\\u0026');
  });
});

describe('never an open proxy', () => {
  it('sends an absolute-form request target to --upstream, never to the host it names', async () => {
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    const before = upstream.received.length;
    const path = clientPath('meta/cp');
    try {
      const { port } = new URL(recorder.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          // The Host is this server's (a foreign one is refused: see test/control/guards.test.ts); the target names another.
          socket.write(
            `GET http://elsewhere.invalid${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
          );
        });
        let text = '';
        socket.on('data', (d) => (text += d));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(upstream.received.slice(before)).toEqual([path]);
    } finally {
      await recorder.stop('SIGINT');
    }
  });

  it('forwards GET and HEAD only: another method gets 405 and never reaches the upstream', async () => {
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', tempDir(), '--port', '0']);
    const before = upstream.received.length;
    try {
      const response = await fetch(`${recorder.url}${clientPath('meta/cp')}`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(upstream.received.length).toBe(before);
    } finally {
      await recorder.stop('SIGINT');
    }
  });
});

describe('load and signals while recording', () => {
  it('200 concurrent requests: all 200 exchanges stored, each file complete', async () => {
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          getBytes(
            `${recorder.url}${clientPathWith(i % 2 ? 'meta/setting' : 'localplay/recomm', { _nonce: String(i) })}`,
          ).then((r) => r.status),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await recorder.stop('SIGINT');
    }
    const files = recordingFiles(dir);
    expect(files).toHaveLength(200);
    for (const file of files) expect(() => JSON.parse(file.text)).not.toThrow();
    expect(new Set(files.map((f) => f.name)).size).toBe(200);
    expect(
      files
        .filter((f) => f.name.startsWith('meta-setting/'))
        .map((f) => f.name.slice(-8, -5))
        .sort(),
    ).toEqual(Array.from({ length: 100 }, (_, i) => String(i).padStart(3, '0')));
  });

  it('SIGINT with exchanges in flight: they finish whole, every file is complete, exit code 0', async () => {
    upstream.switches.delayMs = 400;
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    const before = upstream.received.length;
    const answers = Array.from({ length: 20 }, (_, i) =>
      getBytes(`${recorder.url}${clientPathWith('meta/cp', { _nonce: String(i) })}`).then(
        (r) => r.status,
        () => 0,
      ),
    );
    // SIGINT while at least 10 exchanges wait on the (slow) upstream.
    for (let i = 0; i < 300 && upstream.received.length - before < 10; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const inFlight = upstream.received.length - before;
    const code = await recorder.stop('SIGINT');
    const statuses = await Promise.all(answers);
    expect(code).toBe(0);
    const files = recordingFiles(dir);
    for (const file of files) expect(JSON.parse(file.text).response.status).toBe(200);
    expect(files).toHaveLength(statuses.filter((s) => s === 200).length);
    expect(files.length).toBeGreaterThanOrEqual(inFlight);
    expect(inFlight).toBeGreaterThanOrEqual(10);
  });

  it('SIGKILL in the middle of writing: every recording file that exists is complete', async () => {
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
    const answers = Array.from({ length: 150 }, (_, i) =>
      getBytes(`${recorder.url}${clientPathWith('localplay/recomm', { _nonce: String(i) })}`).catch(() => undefined),
    );
    // Kill it once some files are written and more are being written.
    for (let i = 0; i < 300 && recordingFiles(dir).length < 20; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await recorder.stop('SIGKILL');
    await Promise.all(answers);
    const files = recordingFiles(dir);
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const file of files) expect(() => JSON.parse(file.text), file.name).not.toThrow();
    const replay = await runCli(['validate', dir]);
    expect(replay.stdout).toMatch(new RegExp(`${files.length} of ${files.length} recording`));
  });
});

describe('broken recordings', () => {
  it('replay refuses to start and names each broken file; validate lists every problem and contract finding', async () => {
    const { dir } = await recordSession(upstream.url, [
      clientPath('meta/cp'),
      clientPath('meta/plugin'),
      clientPath('ad_config'),
    ]);
    const files = recordingFiles(dir);
    const cp = files.find((f) => f.name.startsWith('meta-cp/'))!;
    const plugin = files.find((f) => f.name.startsWith('meta-plugin/'))!;
    const ad = files.find((f) => f.name.startsWith('ad_config/'))!;
    writeFileSync(join(dir, cp.name), cp.text.slice(0, 200)); // cut short
    const pluginValue = JSON.parse(plugin.text);
    delete pluginValue.response.status;
    writeFileSync(join(dir, plugin.name), JSON.stringify(pluginValue));
    // A change in the real service: ad_config data became an array.
    const adValue = JSON.parse(ad.text);
    adValue.response.body = '{"data":[],"msg":"OK","result":1}';
    writeFileSync(join(dir, ad.name), JSON.stringify(adValue));

    const replay = await runCli(['replay', dir, '--port', '0']);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(new RegExp(`${cp.name}: invalid JSON \\(line \\d+, column \\d+\\)`));
    expect(replay.stderr).toContain(`${plugin.name} at response.status`);

    const validate = await runCli(['validate', dir]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(join(dir, cp.name));
    expect(validate.stdout).toContain(`${join(dir, plugin.name)} at response.status`);
    expect(validate.stdout).toMatch(
      new RegExp(`${join(dir, ad.name).replace(/[.]/g, '\\.')} \\(ad_config\\) at data: .*expected record`),
    );
    expect(validate.stdout).toMatch(/0 of 3 recordings .* valid, 3 findings/);
    expect(readFileSync(join(dir, ad.name), 'utf8')).toBe(JSON.stringify(adValue)); // validate only reads
  });

  it('validate passes a clean recording folder', async () => {
    const { dir } = await recordSession(upstream.url, [clientPath('localplay/diversion'), clientPath('meta/setting')]);
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout).toContain('2 of 2 recordings');
    expect(validate.code).toBe(0);
  });
});
