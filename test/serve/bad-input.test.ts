import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';

function scenarioDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-scenarios-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('bad input at start', () => {
  it('an unknown scenario exits 2 and lists the available ones', async () => {
    const { code, stderr } = await runCli(['serve', '--scenario', 'galery', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown scenario "galery"\. Known scenarios: default, [a-z, -]*\bgallery,/);
  });

  it('a path flag given twice takes the last, with a one-line error and no stack trace', async () => {
    const { code, stderr } = await runCli([
      'serve',
      '--port',
      '0',
      '--cert',
      'first.pem',
      '--cert',
      'second.pem',
      '--key',
      'k.pem',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^\[mockvideo\] --cert second\.pem: cannot read the file \(ENOENT\)/);
    expect(stderr).not.toMatch(/Cannot redefine property|\n\s+at /);
  });

  it('invalid JSON in a scenario file exits 2 naming the file, line and column', async () => {
    const dir = scenarioDir({
      'broken.json': '{\n  "extends": "default",\n  "operations": { "ad_config": { "data": {} }, }\n}\n',
    });
    const { code, stderr } = await runCli(['serve', '--scenarios-dir', dir, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/broken\.json: invalid JSON \(line 3, column \d+\)/);
  });

  it('data that breaks the contract exits 2 naming the file, the JSON path and the rule', async () => {
    const dir = scenarioDir({
      'bad-settings.json': JSON.stringify({
        extends: 'default',
        operations: { 'meta/setting': { data: { codec_level: 'high' } } },
      }),
    });
    const { code, stderr } = await runCli(['serve', '--scenario', 'default', '--scenarios-dir', dir, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /bad-settings\.json at operations\["meta\/setting"\]\.data\.codec_level: codec_level must be a string holding a number/,
    );
    // The other settings come from "default": a partial object is completed from the parent (issue 20, item 7).
    expect(stderr).not.toMatch(/language_switch/);
  });

  it.each([
    [['serve', '--port', 'eighty'], /--port must be an integer from 0 to 65535, got "eighty"/],
    [['serve', '--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['serve', '--latency', 'slow'], /^\[mockvideo\] --latency slow: expected "recorded", "none" or a factor/m],
    [['serve', '--colour', 'blue'], /Unknown argument: colour/],
    [['sreve'], /Unknown argument: sreve|Did you mean serve/],
  ])('a bad flag or command (%j) exits 2 and names it', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('--help describes the serve flags', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--scenario', '--scenarios-dir', '--port', '--host']) expect(stdout).toContain(flag);
  });
});

describe('bad requests while serving', () => {
  let server: CliProcess;
  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0']);
  });
  afterAll(async () => {
    await server.stop();
  });

  /** A raw request, so the path reaches the server exactly as written (fetch would normalise it). */
  function raw(method: string, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('a path under /api/g1 that is not an operation gets a 404 naming the operations', async () => {
    const { status, body } = await raw('GET', '/api/g1/meta/unknown?uri=x');
    expect(status).toBe(404);
    expect(JSON.parse(body).operations).toEqual([
      'GET /api/g1/ad_config',
      'GET /api/g1/meta/cp',
      'GET /api/g1/meta/setting',
      'GET /api/g1/meta/plugin',
      'GET /api/g1/localplay/diversion',
      'GET /api/g1/localplay/recomm',
    ]);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on an operation gets 405 with Allow', async (method) => {
    const response = await fetch(`${server.url}/api/g1/meta/setting`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await response.json()).error).toContain(`${method} is not allowed`);
  });

  it.each([
    ['malformed percent-encoding in the query', '/api/g1/meta/cp?_model=%E0%A4%A&x=%%&y=%zz', 200],
    [
      'parameters without values, repeated, empty names',
      '/api/g1/localplay/diversion?ref&ref&=&&is_from_gallery=true&is_from_gallery=maybe',
      200,
    ],
    [
      'parameters named like Object members',
      '/api/g1/meta/cp?valueOf=1&constructor=2&__proto__=3&toString=4&hasOwnProperty=5',
      200,
    ],
    ['a 6,000-character parameter', `/api/g1/meta/plugin?_eset=${'x'.repeat(6000)}`, 200],
    ['malformed percent-encoding in the path', '/api/g1/meta/%E0%A4%A', 400],
    ['an unknown scenario prefix', '/scenarios/..%2F..%2Fetc/api/g1/meta/cp', 404],
  ])('%s is answered and the server keeps serving', async (_what, path, status) => {
    expect((await raw('GET', path)).status).toBe(status);
    const after = await fetch(`${server.url}${clientPath('meta/setting')}`);
    expect(after.status).toBe(200);
  });

  it('an over-long URL gets 414 and oversized headers get 431, and the server keeps serving', async () => {
    expect((await raw('GET', `/api/g1/meta/cp?_eset=${'x'.repeat(9000)}`)).status).toBe(414);
    const big = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/g1/meta/cp`, { headers: { 'x-padding': 'y'.repeat(20_000) } }, (res) =>
        resolve(res.statusCode!),
      );
      req.on('error', reject);
      req.end();
    });
    expect(big).toBe(431);
    expect((await fetch(`${server.url}${clientPath('meta/cp')}`)).status).toBe(200);
  });

  it('journals parameters named like Object members as ordinary parameters', async () => {
    await raw('GET', '/api/g1/meta/setting?valueOf=1&valueOf=2&__proto__=x');
    const { requests } = JSON.parse((await raw('GET', '/__mockvideo/requests?operation=meta/setting')).body);
    const last = requests[requests.length - 1];
    expect(last.query.valueOf).toEqual(['1', '2']);
    expect(Object.getOwnPropertyDescriptor(last.query, '__proto__')?.value).toEqual(['x']);
  });

  it('the same handlers answer GET and HEAD', async () => {
    const head = await fetch(`${server.url}${clientPath('meta/cp')}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('shutdown', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s closes the server cleanly with exit code 0', async (signal) => {
    const server = await startCli(['serve', '--port', '0']);
    expect((await fetch(`${server.url}${clientPath('ad_config')}`)).status).toBe(200);
    expect(await server.stop(signal)).toBe(0);
  });
});

describe('mockvideo validate', () => {
  it('passes the shipped scenarios', async () => {
    const { code, stdout } = await runCli(['validate']);
    const shipped = readdirSync(new URL('../../scenarios', import.meta.url)).filter(
      (f) => f.endsWith('.json') && !f.endsWith('.schema.json'),
    ).length;
    expect(stdout).toContain(`${shipped} of ${shipped} scenario files valid`);
    expect(code).toBe(0);
  });

  it('lists every problem of every file and exits 1', async () => {
    const dir = scenarioDir({
      'ok.json': JSON.stringify({ extends: 'gallery', operations: { ad_config: { data: {} } } }),
      'two-problems.json': JSON.stringify({
        extends: 'default',
        operations: { 'meta/plugin': { data: [{ id: 'x' }] }, 'meta/nope': { data: 1 } },
      }),
      'orphan.json': JSON.stringify({ extends: 'missing', operations: {} }),
      'Bad Name.json': '{}',
    });
    mkdirSync(join(dir, 'nested'));
    const { code, stdout } = await runCli(['validate', dir]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/two-problems\.json at operations\["meta\/plugin"\]\.data\[0\]\.md5: /);
    expect(stdout).toMatch(/two-problems\.json at operations\["meta\/nope"\]: unknown operation "meta\/nope"/);
    expect(stdout).toMatch(/orphan\.json at extends: extends unknown scenario "missing"/);
    expect(stdout).toMatch(/Bad Name\.json: "Bad Name" is not a valid scenario name/);
    expect(stdout).not.toMatch(/ok\.json/);
    expect(stdout).toMatch(/1 of 4 scenario files valid/);
  });
});
