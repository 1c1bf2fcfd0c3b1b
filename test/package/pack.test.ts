// The package as users get it: `npm pack` once, then a fresh project outside this repository that
// installs the tarball with docs/jest.md's install line of the babel-jest recipe as written (Jest 30,
// babel-jest, the Babel plugins and msw resolved from the registry's current versions, not from this
// repository's lock or devDependencies: issue 43), and runs there, by package name only (so the
// exports map, both builds, the types and the peer dependency on msw are what is tested, not our
// source tree): vitest (the README's setup as written, and docs/test-authors.md's unmockedRequests
// example failing a test whose app swallowed the failure); Jest 30 (the registry's) and Jest 29 (this
// repository's) in ES module mode and in CommonJS mode with babel-jest, Jest 30 in CommonJS mode with
// no transform (Node 24.9 or later), Jest 29 with ts-jest, a React Native-like Jest environment
// (conditions require, react-native, node) and `node --test`, each project made of the blocks of
// docs/jest.md; esbuild and vite browser bundles in headless Chromium; publint and attw on the
// tarball. Every other `npm install` line of the README and docs/ is resolved as written into an
// empty project of its own (`--dry-run`). The registry gives msw 2 on the Node 20 leg of .ci/run and
// msw 3 on the Node 24 leg, as this repository's node_modules has them there; an unmocked request
// must fail under `onUnhandled('error')` on either, with no --legacy-peer-deps and no overrides.
// vitest and ts-jest are linked from this repository's devDependencies. Needs the build (`npm test`
// runs it in `pretest`) and the npm registry.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import { MSW_MAJOR } from '../support/msw-major.js';
import { RecordingWriter } from '../../src/storage/recording-writer.js';
import {
  babelJestLine,
  BROWSER_HTML,
  BROWSER_PAGE,
  CONSUMER_PACKAGE,
  CONSUMER_TEST,
  CONSUMER_TSCONFIG,
  docBlock,
  docsInstallLines,
  installArgs,
  jestRecipes,
  LINKED,
  NODE_TEST_CJS,
  NODE_TEST_ESM,
  OWN_SCENARIO,
  PROJECT_TYPE,
  RECORDING,
  REQUIRES_ESM,
  SWALLOWED_TEST,
} from './consumer-project.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * True on the second leg of .ci/run (Node 24, msw 3; `MOCKVIDEO_CI_LEG=2`): what does not depend on
 * the runtime or msw's major ran on the first leg already and is left out here, to keep CI within
 * its 15 minutes: the tarball's publint and attw checks, and this repository's Jest 29 where the
 * same recipe also runs with Jest 30 (the one the docs install).
 */
const SECOND_LEG = process.env.MOCKVIDEO_CI_LEG === '2';
/** The version of package `name` installed in the `node_modules` below `dir`. */
const versionIn = (dir: string, name: string): string =>
  (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** This process's environment without what `npm test` and vitest set for themselves. */
function childEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', CI: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TINYPOOL|__VITEST)/i.test(key) || key === 'NODE_OPTIONS' || key === 'INIT_CWD' || key === 'NODE_ENV')
      continue;
    if (/^npm_/i.test(key) && !keep.has(key.toLowerCase())) continue;
    env[key] = value;
  }
  return env;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 120_000,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...childEnv(), ...env }, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error && !stderr ? String(error) : stderr });
      },
    );
  });
}

function explain(what: string, result: Run): string {
  return `${what} exited with ${result.code}.\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
}

/** A static server at 127.0.0.1 (a secure context, so service workers run). */
function serveFiles(files: Record<string, string>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const body = files[path === '/' ? '/index.html' : path];
    if (body === undefined) return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html',
        'cache-control': 'no-store',
      })
      .end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const skipBrowser = skipWithoutChromium('pack test (browser bundles)');

describe('the npm package', () => {
  let work = '';
  let consumer = '';
  let files: string[] = [];
  let tarballPath = '';
  const timings: string[] = [];

  const timed = async <T>(label: string, task: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    try {
      return await task();
    } finally {
      timings.push(`${label} ${((Date.now() - start) / 1000).toFixed(1)} s`);
    }
  };

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/index.js'))) {
      throw new Error('dist/ is missing: run "npm run build" first ("npm test" does it in pretest).');
    }
    work = await mkdtemp(join(tmpdir(), 'mockvideo-pack-'));
    consumer = join(work, 'consumer');

    // --ignore-scripts: pack the build that is there; re-building here would rewrite dist/ under the other tests.
    const pack = await timed('npm pack', () =>
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT),
    );
    expect(pack.code, explain('npm pack', pack)).toBe(0);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    files = info!.files.map((f) => f.path).sort();
    const tarball = join(work, info!.filename);

    await mkdir(join(consumer, 'my-scenarios'), { recursive: true });
    await writeFile(join(consumer, 'package.json'), `${JSON.stringify(CONSUMER_PACKAGE, null, 2)}\n`);
    await writeFile(join(consumer, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
    await writeFile(join(consumer, 'mockvideo.test.ts'), CONSUMER_TEST);
    await writeFile(join(consumer, 'my-scenarios/ads-off.json'), `${JSON.stringify(OWN_SCENARIO, null, 2)}\n`);
    await new RecordingWriter(join(consumer, 'recordings')).write(RECORDING);

    // The docs' line as written (mockvideo is the tarball: it is not on the registry), resolved against the registry.
    const line = babelJestLine();
    const install = await timed('npm install (docs/jest.md)', () =>
      run('npm', [...installArgs(line.line, tarball), '--no-audit', '--no-fund'], consumer, 180_000),
    );
    expect(install.code, explain(`${line.line} (${line.where}, in an empty project)`, install)).toBe(0);
    tarballPath = tarball;

    // The consumer's own vitest runs its root test file only; the folders below are other runners' projects.
    await writeFile(join(consumer, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
    for (const name of LINKED) {
      await mkdir(dirname(join(consumer, 'node_modules', name)), { recursive: true });
      await symlink(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name), 'dir');
    }
    for (const [project, projectFiles] of jestRecipes()) {
      await mkdir(join(consumer, project), { recursive: true });
      await writeFile(
        join(consumer, project, 'package.json'),
        `${JSON.stringify({ name: project, private: true, type: PROJECT_TYPE[project] ?? 'commonjs' }, null, 2)}\n`,
      );
      for (const [file, text] of projectFiles) await writeFile(join(consumer, project, file), text);
    }
    // Jest 29 (this repository's) runs the babel-jest recipes with its own babel-jest, found first in the project's node_modules.
    await mkdir(join(consumer, 'commonjs-jest29/node_modules'), { recursive: true });
    for (const file of ['package.json', 'jest.config.js', 'mockvideo.test.js'])
      await writeFile(join(consumer, 'commonjs-jest29', file), await readFile(join(consumer, 'commonjs', file)));
    // Jest 30 with no transform ("the test file is the one of the next recipe").
    await writeFile(
      join(consumer, 'commonjs-vm/mockvideo.test.js'),
      await readFile(join(consumer, 'commonjs/mockvideo.test.js')),
    );
    // React Native's Jest environment resolves with require, react-native and node: the CommonJS recipe under those conditions.
    await mkdir(join(consumer, 'react-native'), { recursive: true });
    await writeFile(
      join(consumer, 'react-native/package.json'),
      await readFile(join(consumer, 'commonjs/package.json')),
    );
    await writeFile(
      join(consumer, 'react-native/mockvideo.test.js'),
      await readFile(join(consumer, 'commonjs/mockvideo.test.js')),
    );
    await writeFile(
      join(consumer, 'react-native/jest.config.js'),
      `const recipe = require('../commonjs/jest.config.js');\nmodule.exports = { ...recipe, testEnvironmentOptions: { customExportConditions: ['require', 'react-native', 'node'] } };\n`,
    );
    for (const project of ['commonjs-jest29', 'ts-jest', 'react-native']) {
      await mkdir(join(consumer, project, 'node_modules'), { recursive: true });
      await symlink(join(ROOT, 'node_modules/babel-jest'), join(consumer, project, 'node_modules/babel-jest'), 'dir');
    }
    // The README's vitest setup as written, with a test that makes an unmocked request.
    await mkdir(join(consumer, 'readme'), { recursive: true });
    await writeFile(join(consumer, 'readme/setup.ts'), docBlock('README.md', '// test/setup.ts'));
    await writeFile(
      join(consumer, 'readme/unmocked.test.ts'),
      "import { expect, it } from 'vitest';\n\nit('fails a call that no handler answers', async () => {\n  await expect(fetch('https://api.example.com/api/g2/health')).rejects.toThrow();\n});\n",
    );
    await writeFile(
      join(consumer, 'readme/vitest.config.mjs'),
      "export default { test: { include: ['*.test.ts'], setupFiles: ['./setup.ts'] } };\n",
    );
    // docs/test-authors.md's unmockedRequests example (vitest) and docs/jest.md's (Jest), each with a test whose app swallows the failure.
    await mkdir(join(consumer, 'swallowed'), { recursive: true });
    await writeFile(
      join(consumer, 'swallowed/settings.test.ts'),
      docBlock('docs/test-authors.md', '// test/settings.test.ts') + SWALLOWED_TEST,
    );
    await writeFile(
      join(consumer, 'swallowed/vitest.config.mjs'),
      "export default { test: { include: ['*.test.ts'] } };\n",
    );
    await mkdir(join(consumer, 'esm-swallowed'), { recursive: true });
    await writeFile(join(consumer, 'esm-swallowed/package.json'), await readFile(join(consumer, 'esm/package.json')));
    await writeFile(
      join(consumer, 'esm-swallowed/jest.config.js'),
      await readFile(join(consumer, 'esm/jest.config.js')),
    );
    await writeFile(
      join(consumer, 'esm-swallowed/settings.test.js'),
      `${await readFile(join(consumer, 'esm/settings.test.js'), 'utf8')}${SWALLOWED_TEST}`,
    );
    await mkdir(join(consumer, 'node-test'), { recursive: true });
    await writeFile(join(consumer, 'node-test/esm.test.mjs'), NODE_TEST_ESM);
    await writeFile(join(consumer, 'node-test/cjs.test.cjs'), NODE_TEST_CJS);
    await mkdir(join(consumer, 'browser'), { recursive: true });
    await writeFile(join(consumer, 'browser/page.js'), BROWSER_PAGE);
    await writeFile(join(consumer, 'browser/index.html'), BROWSER_HTML);
  }, 240_000);

  afterAll(async () => {
    if (timings.length) console.info(`[pack test] ${timings.join(', ')}`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the build, the CLI, the shipped scenarios and the docs, and no tests or recordings', () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/mockvideo.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/lib/index.js',
      'dist/lib/node.js',
      'dist/lib/contract.js',
      'dist/node.js',
      'dist/node.d.ts',
      'dist/contract/index.js',
      'dist/contract/index.d.ts',
      'dist/cli/main.js',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/node.js',
      'dist/cjs/contract/index.js',
      'dist/cjs/package.json',
      'docs/contract.md',
      'docs/jest.md',
      'scenarios/default.json',
      'scenarios/gallery.json',
      'scenarios/empty-ad-config.json',
      'scenarios/scenario.schema.json',
    ]) {
      expect(files, `the tarball lacks ${path}`).toContain(path);
    }
    const unwanted = files.filter(
      (path) =>
        /(^|\/)(test|tests|recordings|scripts|\.ci|node_modules|coverage)\//.test(path) ||
        /\.test\.|\.spec\./.test(path) ||
        /^tsconfig|^vitest\.config|^package-lock/.test(path),
    );
    expect(unwanted, 'files a user does not need').toEqual([]);
  });

  it("installs next to the user's msw without a second copy of msw: the registry's msw of this leg's major", () => {
    expect(existsSync(join(consumer, 'node_modules/mockvideo/dist/index.js'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules/mockvideo/node_modules/msw')), 'mockvideo brought its own msw').toBe(
      false,
    );
    const resolved = ['msw', 'jest', 'babel-jest', '@babel/core', '@babel/plugin-transform-modules-commonjs'].map(
      (name) => `${name} ${versionIn(consumer, name)}`,
    );
    console.info(
      `[pack test] ${babelJestLine().line} resolved, on Node ${process.versions.node}: ${resolved.join(', ')}`,
    );
    expect(Number(versionIn(consumer, 'msw').split('.')[0]), resolved.join(', ')).toBe(MSW_MAJOR);
  });

  it.concurrent.each(
    docsInstallLines()
      .filter(({ line }) => line !== babelJestLine().line)
      .map(({ line, where }) => [line, where] as const),
  )(
    "resolves the docs' line `%s` (%s) as written into an empty project (--dry-run)",
    async (line, where) => {
      const project = await mkdtemp(join(work, 'line-'));
      await writeFile(join(project, 'package.json'), '{ "name": "empty", "version": "1.0.0", "private": true }\n');
      const result = await timed(`dry run of ${where}`, () =>
        run('npm', [...installArgs(line, tarballPath), '--dry-run', '--no-audit', '--no-fund'], project, 150_000),
      );
      expect(result.code, explain(`${line} --dry-run (${where})`, result)).toBe(0);
      expect(result.stderr).not.toMatch(/ERESOLVE|peer dep/i);
    },
    160_000,
  );

  it.concurrent(
    'runs a vitest file that serves scenarios through setupServer and checks real fetch answers',
    async () => {
      const vitest = await timed('consumer vitest', () =>
        run(
          process.execPath,
          [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'],
          consumer,
        ),
      );
      expect(vitest.code, explain('vitest run (in the consumer project)', vitest)).toBe(0);
      expect(vitest.stdout).toMatch(/Tests\s+11 passed/);
    },
    120_000,
  );

  /** Runs the consumer's vitest in `project` (a folder of the consumer with its own vitest.config.mjs). */
  const vitestIn = (project: string) =>
    timed(`consumer vitest (${project})`, () =>
      run(process.execPath, [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run'], join(consumer, project)),
    );

  it.concurrent(
    "runs the README's vitest setup as written: a call no handler answers fails",
    async () => {
      const vitest = await vitestIn('readme');
      expect(vitest.code, explain("vitest run (the README's setup)", vitest)).toBe(0);
      expect(vitest.stdout).toMatch(/Tests\s+1 passed/);
    },
    120_000,
  );

  it.concurrent(
    "fails, with vitest, the test whose app swallowed an unmocked call (docs/test-authors.md's unmockedRequests)",
    async () => {
      const vitest = await vitestIn('swallowed');
      expect(vitest.code, explain('vitest run (unmockedRequests)', vitest)).toBe(1);
      const output = vitest.stdout + vitest.stderr;
      expect(output).toMatch(/Tests\s+1 failed \| 1 passed/);
      expect(output).toContain('shows the defaults when the settings cannot load');
      expect(output).toContain('GET https://api.example.com/api/g2/settings');
    },
    120_000,
  );

  it.concurrent.each([
    // skipLibCheck off: our .d.ts files must stand on what a user installs (no @types from our devDependencies).
    ['NodeNext', ['-p', 'tsconfig.json']],
    ['Bundler', ['-p', 'tsconfig.json', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--skipLibCheck']],
  ])(
    'typechecks the consumer test against the published types (%s resolution)',
    async (mode, args) => {
      const tsc = await timed(`consumer tsc (${mode})`, () =>
        run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...args], consumer),
      );
      expect(tsc.code, explain(`tsc ${args.join(' ')} (in the consumer project)`, tsc)).toBe(0);
    },
    150_000,
  );

  it('bundles mockvideo and mockvideo/contract for browsers, and refuses mockvideo/node there', async () => {
    const bundle = (contents: string) =>
      build({
        stdin: { contents, resolveDir: consumer, loader: 'ts' },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      });
    const ok = await bundle(
      "export { createHandlers, handlers, scenarioNames } from 'mockvideo';\nexport { envelopeSchema } from 'mockvideo/contract';",
    );
    const text = ok.outputFiles[0]!.text;
    expect(text).toContain('empty-ad-config');
    expect(text).not.toMatch(/from\s*["']node:|require\(["']node:/);
    await expect(bundle("export { loadScenario } from 'mockvideo/node';")).rejects.toThrow(/mockvideo\/node/);
  }, 30_000);

  it('installs a working mockvideo command', async () => {
    const cli = await run(
      process.execPath,
      [join(consumer, 'node_modules/mockvideo/bin/mockvideo.js'), 'scenarios'],
      consumer,
      30_000,
    );
    expect(cli.code, explain('mockvideo scenarios', cli)).toBe(0);
    expect(cli.stdout).toContain('gallery');
  }, 40_000);
  /** Where each Jest comes from: 30 is the registry's (the docs' install line), 29 this repository's devDependency. */
  const JEST = {
    30: () => join(consumer, 'node_modules/jest/bin/jest.js'),
    29: () => join(ROOT, 'node_modules/jest/bin/jest.js'),
  };
  /** Runs a Jest CLI in `project` of the consumer; the test files are the project's. */
  const jest = (label: string, version: 29 | 30, project: string, env: NodeJS.ProcessEnv = {}) =>
    timed(label, () =>
      run(
        process.execPath,
        [JEST[version](), '--ci', '--cacheDirectory', join(work, 'jest-cache', label.replace(/\W+/g, '-'))],
        join(consumer, project),
        120_000,
        env,
      ),
    );

  const VM_MODULES = { NODE_OPTIONS: '--experimental-vm-modules --no-warnings' };
  const jestRuns = (
    [
      ['Jest 30, CommonJS, babel-jest', 30, 'commonjs', {}, 5],
      ['Jest 29, CommonJS, babel-jest', 29, 'commonjs-jest29', {}, 5],
      ['Jest 30, CommonJS, no transform (Node 24.9 or later)', 30, 'commonjs-vm', VM_MODULES, 5],
      ['Jest 29, ts-jest', 29, 'ts-jest', {}, 1],
      ['Jest 30, ES modules', 30, 'esm', VM_MODULES, 3],
      ['Jest 29, ES modules', 29, 'esm', VM_MODULES, 3],
      ['Jest 29, React Native conditions (require, react-native, node)', 29, 'react-native', {}, 5],
    ] as const
  )
    .filter(([, , project]) => REQUIRES_ESM || project !== 'commonjs-vm') // that recipe says Node 24.9 or later
    // Leg 2 runs the babel-jest and ES module recipes with Jest 30 only (ts-jest's and React Native's use 29 on both).
    .filter(
      ([, version, project]) => !SECOND_LEG || version !== 29 || project === 'ts-jest' || project === 'react-native',
    );
  it.concurrent.each(jestRuns)(
    `runs the docs/jest.md recipe for msw ${MSW_MAJOR} with %s, mockvideo untransformed`,
    async (label, version, project, env, tests) => {
      const result = await jest(label, version, project, env);
      expect(result.code, explain(`jest (${label})`, result)).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`Tests:\\s+${tests} passed, ${tests} total`));
    },
    120_000,
  );

  it.concurrent(
    "fails, with Jest 30, the test whose app swallowed an unmocked call (docs/jest.md's unmockedRequests)",
    async () => {
      const result = await jest('Jest 30, unmockedRequests', 30, 'esm-swallowed', VM_MODULES);
      expect(result.code, explain('jest (unmockedRequests)', result)).toBe(1);
      expect(result.stderr).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
      expect(result.stderr).toContain('shows the defaults when the settings cannot load');
      expect(result.stderr).toContain('GET https://api.example.com/api/g2/settings');
    },
    120_000,
  );

  it.concurrent(
    'runs node --test files that import and require both entries',
    async () => {
      const result = await timed('node --test', () =>
        run(process.execPath, ['--test', '--test-reporter=tap'], join(consumer, 'node-test'), 60_000),
      );
      expect(result.code, explain('node --test', result)).toBe(0);
      expect(result.stdout).toMatch(/# pass 2\b/);
    },
    60_000,
  );

  it.skipIf(SECOND_LEG).concurrent(
    'passes publint and attw (every entry resolves under node10, node16 from CommonJS and ESM, bundler)',
    async () => {
      const publint = await timed('publint', () =>
        run(
          process.execPath,
          [join(ROOT, 'node_modules/publint/src/cli.js'), 'run', tarballPath, '--strict'],
          ROOT,
          60_000,
        ),
      );
      expect(publint.code, explain('publint', publint)).toBe(0);
      expect(publint.stdout + publint.stderr).not.toMatch(/warning|error|suggestion/i);
      const attw = await timed('attw', () =>
        run(
          process.execPath,
          [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--format', 'json'],
          ROOT,
          60_000,
        ),
      );
      const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[] } };
      expect(report.analysis.problems, explain('attw', attw)).toEqual([]);
      expect(attw.code).toBe(0);
    },
    90_000,
  );

  describe.skipIf(skipBrowser)('browser bundles of the consumer page in headless Chromium', () => {
    /** Bundles consumer/browser/page.js with esbuild and with vite; each is served with msw's worker script. */
    const bundles = async (): Promise<Record<'esbuild' | 'vite', string>> => {
      const dir = join(consumer, 'browser');
      const esbuilt = await build({
        entryPoints: [join(dir, 'page.js')],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        target: 'chrome120',
        write: false,
        logLevel: 'silent',
      });
      const { build: viteBuild } = await import('vite');
      const out = join(work, 'vite-out');
      await viteBuild({
        root: dir,
        logLevel: 'silent',
        configFile: false,
        build: { outDir: out, emptyOutDir: true, minify: false, modulePreload: false },
      });
      const html = await readFile(join(out, 'index.html'), 'utf8');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, html).toBeDefined();
      return { esbuild: esbuilt.outputFiles[0]!.text, vite: await readFile(join(out, script!), 'utf8') };
    };

    it('runs both bundles: the worker answers the gallery diversion from mockvideo', async () => {
      const built = await timed('browser bundles', bundles);
      const worker = await readFile(join(consumer, 'node_modules/msw/lib/mockServiceWorker.js'), 'utf8');
      const browser = await launchChromium('pack test');
      const servers: Server[] = [];
      try {
        for (const [bundler, page] of Object.entries(built)) {
          const site = await serveFiles({
            '/index.html': BROWSER_HTML,
            '/page.js': page,
            '/mockServiceWorker.js': worker,
          });
          servers.push(site.server);
          const tab = await browser.newPage();
          const log: string[] = [];
          tab.on('pageerror', (error) => log.push(error.message));
          await tab.goto(`${site.origin}/`);
          await tab.waitForFunction(() => (window as { __mockvideo?: unknown }).__mockvideo !== undefined, undefined, {
            timeout: 20_000,
          });
          const outcome = await tab.evaluate(() => (window as { __mockvideo?: unknown }).__mockvideo);
          expect(outcome, `${bundler} bundle: ${log.join('\n')}`).toMatchObject({
            ok: true,
            status: 200,
            scenario: 'gallery',
            known: true,
          });
          expect([500, 'failed'], `${bundler} bundle: an unmocked request reached the site's 404`).toContain(
            (outcome as { unmocked: unknown }).unmocked,
          );
          expect((outcome as { end: number }).end, bundler).toBeGreaterThan(0);
        }
      } finally {
        await browser.close();
        await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      }
    }, 90_000);
  });
});
