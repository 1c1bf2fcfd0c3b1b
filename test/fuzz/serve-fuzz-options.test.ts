// The options of a fuzz run through the CLI and HTTP (issues 42 and 39 L1): classes switched off by
// flag and while serving, fresh devices that explore (--fuzz-per-device), and plugin ids that are
// content-provider ids of the same start-up; each case still rebuilds its bytes.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { OperationName } from '../../src/contract/operation-table.js';
import { classesOf } from '../../src/fuzz/classes.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

const servers: CliProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function serve(args: string[]): Promise<CliProcess> {
  const server = await startCli(['serve', '--port', '0', '--no-watch', ...args]);
  servers.push(server);
  return server;
}

/** One answer of `operation` to the device `device` (a digit, repeated into an `_sdevid`). */
async function ask(url: string, operation: OperationName, device = 'a') {
  const path = clientPath(operation).replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device.repeat(64)}`);
  const response = await fetch(`${url}${path}`);
  return { fuzzCase: response.headers.get('x-mockvideo-fuzz')!, body: await response.text() };
}

/** The fuzz report of a server. */
async function report(url: string) {
  return (await (await fetch(`${url}/__mockvideo/fuzz`)).json()) as {
    classes: Array<{ name: string; on: boolean; answers: number }>;
  };
}

/** The classes the answer `body` of `operation` falls in. */
const classes = (operation: OperationName, body: string) => classesOf(operation, JSON.parse(body).data, body);

describe('serve --fuzz options', () => {
  it('leaves a class out of every answer with --fuzz-exclude, names it in the case, and fuzz show rebuilds it', async () => {
    const server = await serve(['--fuzz', '42', '--fuzz-exclude', 'integer-extreme,json-unicode-escapes']);
    // The fuzz line follows the URL line: read on until it is there.
    while (!server.stdout().includes('fuzz: seed')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.stdout()).toContain('fuzz: seed 42, 32-bit int, classes off: integer-extreme, json-unicode-escapes');
    const answers = [];
    for (let i = 0; i < 150; i++) answers.push(await ask(server.url, 'meta/setting'));
    for (const { fuzzCase, body } of answers) {
      expect(fuzzCase).toMatch(/^42:meta\/setting:\d+:off=integer-extreme,json-unicode-escapes$/);
      expect(classes('meta/setting', body)).not.toContain('integer-extreme');
      expect(body).not.toContain('\\u');
    }
    const shown = await runCli(['fuzz', 'show', answers[7]!.fuzzCase]);
    expect(shown.stdout).toBe(`${answers[7]!.body}\n`);
    const run = await report(server.url);
    expect(run.classes.find((c) => c.name === 'integer-extreme')).toMatchObject({ on: false, answers: 0 });
  });

  it('switches a class off while serving (PUT /__mockvideo/fuzz/classes/:name), and refuses an unknown one', async () => {
    const server = await serve(['--fuzz', '7']);
    const put = (name: string, body: unknown) =>
      fetch(`${server.url}/__mockvideo/fuzz/classes/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const switched = await put('title-long', { on: false });
    expect(switched.status).toBe(200);
    expect((await switched.json()).classes.find((c: { name: string }) => c.name === 'title-long').on).toBe(false);
    // The terminal says so, as for every change through the admin API.
    await vi.waitFor(() => expect(server.stdout()).toContain('admin: fuzz class title-long switched off\n'));
    const later = [];
    for (let i = 0; i < 100; i++) later.push(await ask(server.url, 'meta/cp'));
    for (const { fuzzCase, body } of later) {
      expect(fuzzCase).toContain(':off=title-long');
      expect(classes('meta/cp', body)).not.toContain('title-long');
    }
    expect((await runCli(['fuzz', 'show', later[3]!.fuzzCase])).stdout).toBe(`${later[3]!.body}\n`);
    const unknown = await put('nope', { on: false });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/^Unknown edge class "nope": the classes are items-empty, /);
    expect((await put('diversion-order-unsorted', { on: true })).status).toBe(400);
    expect((await put('title-long', 'off')).status).toBe(400);
  });

  it('names a class that is none and a flag that needs --fuzz', async () => {
    const bad = await runCli(['serve', '--port', '0', '--fuzz', '1', '--fuzz-classes', 'items-many,nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fuzz-classes: Unknown edge class "nope": the classes are items-empty');
    const alone = await runCli(['serve', '--port', '0', '--fuzz-integers', '53']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fuzz-integers needs --fuzz [SEED]');
  });

  it('gives two fresh devices different first answers with --fuzz-per-device, each rebuilt by its case', async () => {
    const plain = await serve(['--fuzz', '42']);
    expect((await ask(plain.url, 'localplay/recomm', 'a')).body).toBe(
      (await ask(plain.url, 'localplay/recomm', 'b')).body,
    );
    const fleet = await serve(['--fuzz', '42', '--fuzz-per-device']);
    const first = await ask(fleet.url, 'localplay/recomm', 'a');
    const second = await ask(fleet.url, 'localplay/recomm', 'b');
    expect(first.fuzzCase).toMatch(/^42:localplay\/recomm:1:device=[0-9a-f]{8}$/);
    expect(second.fuzzCase).toMatch(/^42:localplay\/recomm:1:device=[0-9a-f]{8}$/);
    expect(first.fuzzCase).not.toBe(second.fuzzCase);
    expect(first.body).not.toBe(second.body);
    for (const { fuzzCase, body } of [first, second])
      expect((await runCli(['fuzz', 'show', fuzzCase])).stdout).toBe(`${body}\n`);
    const replaying = await serve(['--fuzz-case', second.fuzzCase]);
    expect((await ask(replaying.url, 'localplay/recomm', 'c')).body).toBe(second.body);
  });

  it('gives plugins ids of the content providers of the same start-up, vendor_market_detail only on app_apk', async () => {
    const server = await serve(['--fuzz', '42']);
    const problems: string[] = [];
    let plugins = 0;
    for (let startUp = 0; startUp < 300; startUp++) {
      const providers = new Set(
        (JSON.parse((await ask(server.url, 'meta/cp')).body).data as Array<{ id: string }>).map((cp) => cp.id),
      );
      const answer = await ask(server.url, 'meta/plugin');
      for (const entry of JSON.parse(answer.body).data as Array<{ id: string; type: string; params: object }>) {
        plugins++;
        if (!providers.has(entry.id)) problems.push(`${answer.fuzzCase}: plugin ${entry.id} is no provider`);
        if ('vendor_market_detail' in entry.params && entry.type !== 'app_apk')
          problems.push(`${answer.fuzzCase}: vendor_market_detail on ${entry.type}`);
      }
    }
    expect(plugins).toBeGreaterThan(200);
    expect(problems.slice(0, 5)).toEqual([]);
  }, 60_000);
});
