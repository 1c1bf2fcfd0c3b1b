import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { failingCases, readJunit, scriptedStartUp } from '../support/junit.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';

afterAll(removeTempDirs);

const GOOD = 'a'.repeat(64);
const BROKEN = 'b'.repeat(64);

describe('verify --junit', () => {
  let server: CliProcess;
  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(async () => {
    await fetch(`${server.url}/__mockvideo/requests`, { method: 'DELETE' });
  });

  it('writes one failing test case for the start-up that broke a rule, and exits 1', async () => {
    await scriptedStartUp(server.url, GOOD);
    await scriptedStartUp(server.url, BROKEN, { skip: 'meta/plugin' });
    const file = join(tempDir('mockvideo-junit-'), 'reports', 'mockvideo.xml');
    const cli = await runCli(['verify', '--url', server.url, '--junit', file]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(
      /JUnit report written to .*mockvideo\.xml: 15 test cases, 1 failed \(device b{12}…: start-up 1\)\n/,
    );

    const report = readJunit(file);
    expect(failingCases(report)).toEqual([`device ${'b'.repeat(12)}…: start-up 1`]);
    expect(report.failures).toBe('1');
    // The journal's suite, then one per device in order of its first request.
    expect(report.testsuite.map((s) => s.name)).toEqual([
      'journal',
      `device ${'a'.repeat(12)}…`,
      `device ${'b'.repeat(12)}…`,
    ]);
    const broken = report.testsuite[2]!;
    expect(broken.testcase.map((c) => c.name)).toEqual([
      'start-up 1',
      'ad_config keeps the contract',
      'meta/cp keeps the contract',
      'meta/setting keeps the contract',
      'meta/plugin keeps the contract',
      'localplay/diversion keeps the contract',
      'localplay/recomm keeps the contract',
    ]);
    const failure = broken.testcase[0]!.failure!;
    expect(failure.type).toBe('start-up-calls-each-operation-once');
    expect(failure.message).toMatch(/meta\/plugin ×0/);
    expect(broken.testcase.find((c) => c.name === 'meta/plugin keeps the contract')!.skipped).toBeDefined();
    expect(broken.testcase[0]!['system-out']).toMatch(/^requests #\d+, #\d+/);
  });

  it('exits 0 with no failure when every start-up holds', async () => {
    await scriptedStartUp(server.url, GOOD);
    const file = join(tempDir('mockvideo-junit-'), 'ok.xml');
    const cli = await runCli(['verify', '--url', server.url, '--junit', file]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/PASS\n/);
    const report = readJunit(file);
    expect(report.failures).toBe('0');
    expect(report.tests).toBe('8');
  });

  it('fails the journal suite when no device called, and skips operations a device never called', async () => {
    const file = join(tempDir('mockvideo-junit-'), 'empty.xml');
    expect((await runCli(['verify', '--url', server.url, '--junit', file])).code).toBe(1);
    expect(failingCases(readJunit(file))).toEqual(['journal: start-up-seen']);

    await fetch(`${server.url}${clientPathWith('meta/cp', { _sdevid: GOOD })}`);
    expect((await runCli(['verify', '--url', server.url, '--junit', file])).code).toBe(1);
    const device = readJunit(file).testsuite[1]!;
    expect(device.testcase.filter((c) => c.skipped !== undefined).map((c) => c.name)).toHaveLength(5);
    expect(failingCases(readJunit(file))).toEqual([`device ${'a'.repeat(12)}…: start-up 1`]);
  });

  it('--fail-on chooses what counts: findings reported but not counted, unanswered requests counted', async () => {
    // A start-up whose every request has a finding (_region in lower case), on a base URL prefix naming no scenario.
    for (const operation of ['ad_config', 'meta/cp'] as const)
      await fetch(`${server.url}${clientPathWith(operation, { _sdevid: GOOD, _region: 'de' })}`);
    const file = join(tempDir('mockvideo-junit-'), 'fail-on.xml');

    const startUps = await runCli(['verify', '--url', server.url, '--junit', file, '--fail-on', 'findings']);
    expect(startUps.code).toBe(1);
    expect(failingCases(readJunit(file))).toEqual([
      `device ${'a'.repeat(12)}…: ad_config keeps the contract`,
      `device ${'a'.repeat(12)}…: meta/cp keeps the contract`,
    ]);

    const lenient = await runCli(['verify', '--url', server.url, '--junit', file, '--fail-on', 'unanswered']);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/✗ requests-keep-the-contract: .*\(not counted: --fail-on unanswered\)/);
    expect(lenient.stdout).toMatch(/PASS\n/);
    const cpCase = readJunit(file).testsuite[1]!.testcase.find((c) => c.name === 'meta/cp keeps the contract')!;
    expect(cpCase.failure).toBeUndefined();
    expect(cpCase['system-out']).toMatch(
      /not counted \(--fail-on unanswered\): ✗ requests-keep-the-contract: #\d+ at .*_region format/,
    );

    await fetch(`${server.url}/scenarios/no-such-scenario${clientPathWith('meta/setting', { _sdevid: GOOD })}`);
    const missed = await runCli(['verify', '--url', server.url, '--junit', file, '--fail-on', 'unanswered']);
    expect(missed.code).toBe(1);
    expect(missed.stdout).toMatch(
      /✗ requests-answered: 1 request\(s\) no scenario or recording answered: #\d+ meta\/setting 404/,
    );
    expect(failingCases(readJunit(file))).toEqual([`device ${'a'.repeat(12)}…: start-up 1`]);
  });

  it('refuses an unknown --fail-on value in one line naming the flag', async () => {
    const cli = await runCli(['verify', '--url', server.url, '--fail-on', 'start-up']);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/--fail-on takes start-ups, findings, unanswered .*got "start-up"/);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('serve --junit', () => {
  it('writes the report when it stops and exits 1 when a start-up broke a rule', async () => {
    const file = join(tempDir('mockvideo-junit-'), 'serve.xml');
    const server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet', '--junit', file]);
    await scriptedStartUp(server.url, BROKEN, { skip: 'meta/cp' });
    expect(existsSync(file)).toBe(false);
    expect(await server.stop('SIGTERM')).toBe(1);
    expect(server.stdout()).toMatch(/mockvideo stopped after \d+ s: 5 requests in the journal\n/);
    expect(server.stdout()).toMatch(
      /JUnit report written to .*serve\.xml: 8 test cases, 1 failed \(device b{12}…: start-up 1\)/,
    );
    expect(failingCases(readJunit(file))).toEqual([`device ${'b'.repeat(12)}…: start-up 1`]);
  });

  it('exits 0 when every start-up held', async () => {
    const file = join(tempDir('mockvideo-junit-'), 'serve-ok.xml');
    const server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet', '--junit', file]);
    await scriptedStartUp(server.url, GOOD);
    expect(await server.stop('SIGINT')).toBe(0);
    expect(readJunit(file).failures).toBe('0');
  });
});

describe('replay --junit', () => {
  it('counts the near misses of replay as requests no recording answered', async () => {
    const file = join(tempDir('mockvideo-junit-'), 'replay.xml');
    const server = await startCli([
      'replay',
      tempDir('mockvideo-empty-'),
      '--port',
      '0',
      '--no-watch',
      '--quiet',
      '--junit',
      file,
    ]);
    expect(await scriptedStartUp(server.url, GOOD)).toEqual(Array(6).fill(404));
    expect(await server.stop('SIGTERM')).toBe(1);
    const startUp = readJunit(file).testsuite[1]!.testcase[0]!;
    expect([startUp.name, startUp.failure?.type]).toEqual(['start-up 1', 'requests-answered']);
  });
});
