import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { failingCases, readJunit } from '../support/junit.js';
import { markdownBlocks } from '../support/markdown-blocks.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(removeTempDirs);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader, by its path: the job's folder has no node_modules. */
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
/** The job script of docs/ci.md, as written there. */
const SCRIPT = markdownBlocks(join(ROOT, 'docs/ci.md')).find(
  (b) => b.lang === 'bash' && b.code.startsWith('#!/usr/bin/env bash'),
)!.code;

/**
 * Runs the script in a fresh folder, as a CI job would, with stand-ins on the PATH: `npx mockvideo`
 * runs this package's CLI, `adb` writes what it was asked to a log, and `./gradlew` (the
 * instrumented tests) is the scripted client over 127.0.0.1.
 */
function runJob(env: Record<string, string> = {}): Promise<{ code: number | null; output: string; dir: string }> {
  const dir = tempDir('mockvideo-ci-');
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'ci'));
  writeFileSync(join(dir, 'ci/emulator-tests.sh'), SCRIPT);
  const executable = (file: string, text: string) => {
    writeFileSync(file, text);
    chmodSync(file, 0o755);
  };
  executable(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = mockvideo ] && shift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  executable(join(bin, 'adb'), `#!/bin/sh\necho "$@" >> "${join(dir, 'adb.log')}"\n`);
  executable(
    join(dir, 'gradlew'),
    `#!/bin/sh\nexec "${process.execPath}" --import "${TSX}" "${join(ROOT, 'test/support/scripted-client.ts')}" "${join(dir, 'adb.log')}"\n`,
  );
  const child = spawn('bash', ['ci/emulator-tests.sh'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}`, NODE_OPTIONS: '', ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, dir });
    });
  });
}

describe('docs/ci.md: the emulator job, with a scripted client in place of the emulator', () => {
  it('passes when the start-up keeps the rules: exit 0, a JUnit file with no failure', async () => {
    const job = await runJob();
    expect(job.code, job.output).toBe(0);
    expect(readFileSync(join(job.dir, 'adb.log'), 'utf8')).toMatch(/^reverse tcp:8787 tcp:\d+\n$/);
    expect(job.output).toMatch(/scripted start-up: 200 200 200 200 200 200\n/);
    const report = readJunit(join(job.dir, 'build/mockvideo/junit.xml'));
    expect(report.failures).toBe('0');
    expect(report.testsuite.map((s) => s.name)).toEqual(['journal', `device ${'a'.repeat(12)}…`]);
    // The trap stopped the server: it printed its stop line into the log.
    await expect
      .poll(() => readFileSync(join(job.dir, 'build/mockvideo/serve.log'), 'utf8'))
      .toMatch(/mockvideo stopped after/);
  });

  it('fails the job when the start-up broke a rule: exit 1, one failing test case for it', async () => {
    const job = await runJob({ SCRIPTED_SKIP: 'meta/plugin' });
    expect(job.code, job.output).toBe(1);
    const file = join(job.dir, 'build/mockvideo/junit.xml');
    expect(existsSync(file)).toBe(true);
    expect(failingCases(readJunit(file))).toEqual([`device ${'a'.repeat(12)}…: start-up 1`]);
  });
});
