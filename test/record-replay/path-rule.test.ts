// The recorder reads paths through the routes' one path rule (issue 32.2, issue 34.15): what `serve`
// answers as an operation, `record` forwards and records, at the operation's own path; what `serve`
// answers itself (405, 404), `record` answers the same, and nothing reaches the upstream outside /api/g1.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** Sends `path` exactly as written (no URL normalisation, unlike fetch). */
function send(
  base: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = request({ hostname, port, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

let upstream: Upstream;
let recorder: CliProcess;
let serve: CliProcess;
let dir: string;

beforeAll(async () => {
  upstream = await startUpstream();
  dir = tempDir();
  [recorder, serve] = await Promise.all([
    startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']),
    startCli(['serve', '--port', '0', '--no-watch']),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([recorder?.stop('SIGINT'), serve?.stop('SIGINT')]);
  await upstream?.close();
  removeTempDirs();
});

describe('record: one path rule with serve', () => {
  it('records /api/g1/./meta/setting and /api/g1/%6Deta/plugin, which serve answers as operations, at their own paths', async () => {
    const query = clientPath('meta/setting').split('?')[1]!;
    for (const path of [`/api/g1/./meta/setting?${query}`, `/api/g1/%6Deta/plugin?${query}`]) {
      expect((await send(serve.url, path)).status, `serve ${path}`).toBe(200);
      expect((await send(recorder.url, path)).status, `record ${path}`).toBe(200);
    }
    expect(upstream.received.slice(-2).map((target) => target.split('?')[0])).toEqual([
      '/api/g1/meta/setting',
      '/api/g1/meta/plugin',
    ]);
    await recorder.stop('SIGINT');
    const files = recordingFiles(dir);
    expect(files.map((f) => f.name.split('/')[0])).toEqual(['meta-plugin', 'meta-setting']);
    expect(files.map((f) => JSON.parse(f.text).request.path)).toEqual(['/api/g1/meta/plugin', '/api/g1/meta/setting']);
    recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
  });

  it('answers a POST with the same 405 (status, Allow, body) as serve, and never forwards it', async () => {
    const before = upstream.received.length;
    const [recorded, served] = [
      await send(recorder.url, '/api/g1/meta/cp', 'POST'),
      await send(serve.url, '/api/g1/meta/cp', 'POST'),
    ];
    expect(recorded.status).toBe(405);
    expect(recorded.headers.allow).toBe(served.headers.allow);
    expect(recorded.body).toBe(served.body);
    expect(upstream.received.length).toBe(before);
  });

  it('never forwards /api/g1/..%2f… or /api/g1/..;/… (outside /api/g1 on the upstream): the 404 serve gives', async () => {
    const before = upstream.received.length;
    for (const path of [
      '/api/g1/..%2f..%2fadmin%2fsecrets',
      '/api/g1/..;/..;/admin',
      '/api/g1/meta/nothing',
      '/api/g1/..%2F',
    ]) {
      const [recorded, served] = [await send(recorder.url, path), await send(serve.url, path)];
      expect(recorded.status, path).toBe(served.status);
      expect(recorded.body.replaceAll(recorder.url, '')).toBe(served.body.replaceAll(serve.url, ''));
    }
    expect(upstream.received.slice(before)).toEqual([]);
  });
});
