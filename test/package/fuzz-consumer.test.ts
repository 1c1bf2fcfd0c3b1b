// A consumer project from `npm pack` that writes a property test with `mockvideo/arbitraries`: the
// whole vitest file of docs/test-authors.md ("Property tests with mockvideo/arbitraries"), run in a
// fresh project outside this repository with the tarball, fast-check and msw installed by npm and
// vitest linked from this repository. It must catch the planted parser bug and report a shrunk
// answer. Then, fast-check removed, the main entry `mockvideo` still loads and `mockvideo/arbitraries`
// names what is missing. Needs the build and the npm registry (the npm cache usually answers).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownBlocks } from '../support/markdown-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const version = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 150_000,
): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    CI: '1',
    npm_config_cache: process.env.npm_config_cache,
    npm_config_registry: process.env.npm_config_registry,
  };
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}\n${stderr}` });
    });
  });
}

/** The whole vitest file of the docs' section on arbitraries. */
function docsTestFile(): string {
  const file = join(ROOT, 'docs/test-authors.md');
  const heading = readFileSync(file, 'utf8').split('\n').indexOf('## Property tests with `mockvideo/arbitraries`') + 1;
  const block = markdownBlocks(file).find((b) => b.line > heading && b.lang === 'ts');
  if (!heading || !block)
    throw new Error('docs/test-authors.md has no ts block under "## Property tests with `mockvideo/arbitraries`"');
  return block.code;
}

describe('a consumer project with mockvideo/arbitraries', () => {
  let work = '';
  let consumer = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'mockvideo-fuzz-consumer-'));
    consumer = join(work, 'consumer');
    const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT);
    expect(pack.code, pack.out).toBe(0);
    const [info] = JSON.parse(pack.out.slice(pack.out.indexOf('['), pack.out.lastIndexOf(']') + 1)) as Array<{
      filename: string;
    }>;
    await mkdir(consumer, { recursive: true });
    await writeFile(
      join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'fuzz-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    const install = await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--save-dev',
        join(work, info!.filename),
        `fast-check@${version('fast-check')}`,
        `msw@${version('msw')}`,
      ],
      consumer,
    );
    expect(install.code, install.out).toBe(0);
    await symlink(join(ROOT, 'node_modules', 'vitest'), join(consumer, 'node_modules', 'vitest'), 'dir');
    await writeFile(join(consumer, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
    await writeFile(join(consumer, 'parse-recommendations.test.ts'), docsTestFile());
  }, 300_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('catches the planted parser bug and reports a shrunk answer', async () => {
    const result = await run(process.execPath, [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run'], consumer);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toContain('1 passed');
    expect(result.out).toMatch(/Property failed after \d+ tests/);
    expect(result.out).toMatch(/Shrunk \d+ time\(s\)/);
    expect(result.out).toContain('"duration":0');
  });

  it('loads the main entry without fast-check, and says what mockvideo/arbitraries needs', async () => {
    await rm(join(consumer, 'node_modules/fast-check'), { recursive: true, force: true });
    const main = await run(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('mockvideo'); console.log(typeof m.createHandlers);"],
      consumer,
    );
    expect(main.out.trim()).toBe('function');
    const fuzz = await run(
      process.execPath,
      ['--input-type=module', '-e', "await import('mockvideo/arbitraries');"],
      consumer,
    );
    expect(fuzz.code).not.toBe(0);
    expect(fuzz.out).toContain("Cannot find package 'fast-check'");
  });
});
