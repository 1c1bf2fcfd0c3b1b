// The package as users get it: `npm pack` once, then install the tarball with msw and vitest into a
// fresh project outside this repository and run there, by package name only (so the exports map,
// both builds, the types and the peer dependency on msw are what is tested, not our source tree):
// vitest; Jest 29 and 30 in ES module mode and in CommonJS mode with babel-jest, Jest 30 in
// CommonJS mode with no transform (Node 24.9 or later), Jest 29 with ts-jest, a React Native-like
// Jest environment (conditions require, react-native, node) and `node --test`, each project made of
// the blocks of docs/jest.md for the msw major installed; esbuild and vite browser bundles in
// headless Chromium; publint and attw on the tarball. The consumer gets the msw major of this
// repository's node_modules: msw 2 on the Node 20 leg of .ci/run, msw 3 on the Node 24 leg; an
// unmocked request must fail under that major's documented option (`onUnhandledRequest` in 2,
// `onUnhandledFrame` in 3), with no --legacy-peer-deps and no overrides. Jest, ts-jest, babel and vite come from
// this repository's devDependencies (linked into the consumer's node_modules), so only the tarball,
// msw and vitest are installed. Needs the build (`npm test` runs it in `pretest`) and the npm
// registry (the npm cache usually answers: `--prefer-offline`).
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
import { markdownBlocks } from '../support/markdown-blocks.js';
import { MSW_MAJOR } from '../support/msw-major.js';
import { DEFAULT_POLICY, matchKey, type RawPair, type Recording } from '../../src/normalise/index.js';
import { RecordingWriter } from '../../src/storage/recordings.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const installedVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** This process's environment without what `npm test` and vitest set for themselves. */
function childEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', CI: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|TINYPOOL|__VITEST)/i.test(key) || key === 'NODE_OPTIONS' || key === 'INIT_CWD' || key === 'NODE_ENV') continue;
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

function run(command: string, args: string[], cwd: string, timeoutMs = 120_000, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...childEnv(), ...env }, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr: error && !stderr ? String(error) : stderr });
    });
  });
}

function explain(what: string, result: Run): string {
  return `${what} exited with ${result.code}.\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
}

const CONSUMER_PACKAGE = {
  name: 'mockvideo-consumer',
  version: '0.0.0',
  private: true,
  type: 'module',
};

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  include: ['*.test.ts'],
};

/** A user's own scenario: extends a shipped one, read by `loadScenario` of `mockvideo/node`. */
const OWN_SCENARIO = {
  description: 'Gallery recommendations with advertising switched off',
  extends: 'gallery',
  operations: { ad_config: { data: { enabled: false } } },
};

/** One recorded exchange of meta/cp, its body as the upstream wrote it; replayed by `createReplayHandlers` of `mockvideo/node`. */
const RECORDED_QUERY: RawPair[] = [['ref', ''], ['_region', 'IN'], ['_st', '<SERVICE_TOKEN>'], ['_nonce', '1210681715']];
const RECORDED_BODY = '{"data":[{"id":"recorded","name":"Recorded \\u0026 Co","apk_url":"","app_icon":"","top_right_logo":"","cp_link":""}],"msg":"OK","result":1}';
const RECORDING: Recording = {
  operation: 'meta/cp',
  matchKey: matchKey('GET', 'meta/cp', RECORDED_QUERY, DEFAULT_POLICY),
  recordedAt: '2026-01-01T00:00:00.000Z',
  request: { method: 'GET', path: '/api/g1/meta/cp', query: RECORDED_QUERY, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: RECORDED_BODY },
};

/** The documented option that fails a test on an unmocked request, in the msw major under test. */
const UNHANDLED = MSW_MAJOR >= 3 ? 'onUnhandledFrame' : 'onUnhandledRequest';

// The test file a user would write: imports by package name only.
const CONSUMER_TEST = `import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createHandlers, handlers, isScenarioName, scenarioNames, UnknownScenarioError } from 'mockvideo';
import { createReplayHandlers, loadScenario } from 'mockvideo/node';
import { adConfigSchema, contentProvidersSchema, envelopeSchema, toServiceJson, type AdConfig, type ContentProvider, type Envelope } from 'mockvideo/contract';

const API = 'https://api.example.com/api/g1';
const QUERY = '?ref=&_st=PLACEHOLDER&_region=IN';
const server = setupServer(...createHandlers({ scenario: 'empty-ad-config' }));

beforeAll(() => server.listen({ ${UNHANDLED}: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

it('fails a request to a path or host that no handler answers, with createHandlers() on any origin', async () => {
  await expect(fetch('https://api.example.com/health')).rejects.toThrow();
  await expect(fetch('https://cdn.example.com/v2/api/g1/meta/cp')).rejects.toThrow();
});

it('answers ad_config with an empty object in scenario empty-ad-config', async () => {
  const response = await fetch(API + '/ad_config' + QUERY);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\\/json/);
  const body: { data: AdConfig; msg: string; result: number } = envelopeSchema(adConfigSchema).parse(await response.json());
  expect(body).toEqual({ data: {}, msg: 'OK', result: 1 });
});

it('answers the other operations as default does, with & written as \\\\u0026', async () => {
  const response = await fetch(API + '/meta/cp' + QUERY);
  const text = await response.text();
  expect(text).toContain('\\\\u0026');
  const providers: ContentProvider[] = envelopeSchema(contentProvidersSchema).parse(JSON.parse(text)).data;
  expect(providers.length).toBeGreaterThan(0);
});

it('lets a test override one operation with server.use', async () => {
  server.use(http.get('*/api/g1/meta/cp', () => HttpResponse.json({ data: [], msg: 'OK', result: 1 })));
  expect(await (await fetch(API + '/meta/cp' + QUERY)).json()).toEqual({ data: [], msg: 'OK', result: 1 });
  expect((await (await fetch(API + '/ad_config' + QUERY)).json()).data).toEqual({});
});

it('lets a test override one operation with a typed payload written as the service writes it', async () => {
  const body: Envelope<ContentProvider[]> = {
    data: [{ id: 'cinebox', name: 'CineBox', apk_url: '', app_icon: '', top_right_logo: '', cp_link: 'videoplayer://com.example.cinebox?action=openHome&ref=com.example.videoplayer' }],
    msg: 'OK',
    result: 1,
  };
  server.use(
    http.get('*/api/g1/meta/cp', () => new HttpResponse(toServiceJson(body), { headers: { 'content-type': 'application/json; charset=utf-8' } })),
    http.get('*/api/g1/ad_config', () => new HttpResponse(null, { status: 500 })),
  );
  const text = await (await fetch(API + '/meta/cp' + QUERY)).text();
  expect(text).toContain('openHome\\\\u0026ref=');
  expect(JSON.parse(text)).toEqual(body);
  expect((await fetch(API + '/ad_config' + QUERY)).status).toBe(500);
});

it('switches to another scenario for one test', async () => {
  server.use(...createHandlers({ scenario: 'no-recommendations' }));
  expect((await (await fetch(API + '/localplay/recomm' + QUERY)).json()).data).toEqual([]);
});

it('answers only the origin given as baseUrl', async () => {
  server.use(...createHandlers({ scenario: 'gallery', baseUrl: 'https://api.example.com' }));
  expect((await fetch(API + '/meta/cp' + QUERY)).headers.get('x-mockvideo-scenario')).toBe('gallery');
  expect((await fetch('https://staging.example.com/api/g1/meta/cp' + QUERY)).headers.get('x-mockvideo-scenario')).toBe('empty-ad-config');
});

it('exports the default handlers and the shipped scenario names', async () => {
  expect(scenarioNames).toEqual(expect.arrayContaining(['default', 'empty-ad-config', 'gallery', 'non-gallery', 'plugin-upgrade', 'no-recommendations', 'i18n-stress', 'settings-twice']));
  server.use(...handlers);
  expect(Object.keys((await (await fetch(API + '/ad_config' + QUERY)).json()).data).length).toBeGreaterThan(0);
});

it('refuses a misspelled scenario name: a type error, and at run time an error naming the known ones', () => {
  // @ts-expect-error 'galery' is not a ScenarioName (tsc fails this file if the types accept it).
  expect(() => createHandlers({ scenario: 'galery' })).toThrow(UnknownScenarioError);
  // @ts-expect-error the same with the run-time message.
  expect(() => createHandlers({ scenario: 'galery' })).toThrow(/Unknown scenario "galery".*default.*empty-ad-config.*gallery/);
  const fromOutside: string = 'gallery';
  expect(isScenarioName(fromOutside) && createHandlers({ scenario: fromOutside }).length).toBe(1);
});

it('replays a recording folder through createReplayHandlers of mockvideo/node', async () => {
  server.use(...createReplayHandlers('recordings', { match: 'strict' }));
  const response = await fetch(API + '/meta/cp?ref=&_region=IN&_st=OTHER&_nonce=42');
  expect([response.status, response.headers.get('x-mockvideo-match')]).toEqual([200, 'exact']);
  expect(await response.text()).toBe(${JSON.stringify(RECORDED_BODY)});
  expect((await fetch(API + '/meta/cp?ref=&_region=DE')).status).toBe(404);
  server.use(...createReplayHandlers('recordings', { match: 'strict', fallback: createHandlers({ scenario: 'empty-ad-config' }) }));
  const fallback = await fetch(API + '/ad_config' + QUERY);
  expect([fallback.status, fallback.headers.get('x-mockvideo-match')]).toEqual([200, 'fallback']);
  expect((await fallback.json()).data).toEqual({});
});

it('serves a scenario file of the user through loadScenario of mockvideo/node', async () => {
  server.use(...createHandlers(loadScenario('my-scenarios/ads-off.json')));
  expect((await (await fetch(API + '/ad_config' + QUERY)).json()).data).toMatchObject({ enabled: false }); // the parent's other ad config fields come along
  const diversion = await (await fetch(API + '/localplay/diversion' + QUERY + '&is_from_gallery=true')).json();
  expect(diversion.data.end.length).toBeGreaterThan(0);
});
`;

/** Packages of this repository's devDependencies the consumer's runners load by name (linked, not installed: a faster run). */
const LINKED = ['vitest', 'babel-jest', '@babel/plugin-transform-modules-commonjs', 'babel-plugin-transform-import-meta', '@jest/globals', 'ts-jest'];

/**
 * The Jest projects of docs/jest.md ("Use with Jest") for the msw major installed: each `<!--
 * consumer: <project>/<file> -->` block is that file; a block marked for another major is taken
 * with the docs' one rule applied (msw 2 writes `onUnhandledRequest` where msw 3 writes
 * `onUnhandledFrame`), unless the docs have a block of its own for this major.
 */
function jestRecipes(): Map<string, Map<string, string>> {
  const projects = new Map<string, Map<string, string>>();
  const own = new Set<string>();
  for (const block of markdownBlocks(join(ROOT, 'docs/jest.md'))) {
    if (!block.consumer) continue;
    const [project, ...file] = block.consumer.split('/');
    const mine = block.msw === undefined || block.msw === MSW_MAJOR;
    if (!mine && own.has(block.consumer)) continue;
    if (mine) own.add(block.consumer);
    const code = mine ? block.code : MSW_MAJOR >= 3 ? block.code.replaceAll('onUnhandledRequest', 'onUnhandledFrame') : block.code.replaceAll('onUnhandledFrame', 'onUnhandledRequest');
    if (!projects.has(project!)) projects.set(project!, new Map());
    projects.get(project!)!.set(file.join('/'), code);
  }
  return projects;
}

/** Node 24.9 or later: `require` of ES modules without a flag, which Jest 30's CommonJS mode uses under VM modules. */
const REQUIRES_ESM = ((major, minor) => major > 24 || (major === 24 && minor >= 9))(...(process.versions.node.split('.').map(Number) as [number, number]));

/** The `"type"` of each Jest project's package.json. */
const PROJECT_TYPE: Record<string, 'commonjs' | 'module'> = { commonjs: 'commonjs', 'commonjs-vm': 'commonjs', 'ts-jest': 'commonjs', esm: 'module' };

/** `node --test` files: the ES module and the CommonJS build, both entries. */
const NODE_TEST_ESM = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setupServer } from 'msw/node';
import { createHandlers, scenarioNames } from 'mockvideo';
import { createReplayHandlers } from 'mockvideo/node';
import { envelopeSchema, adConfigSchema } from 'mockvideo/contract';

test('serves empty-ad-config through setupServer (ES modules)', async () => {
  const server = setupServer(...createReplayHandlers([], { fallback: createHandlers({ scenario: 'empty-ad-config' }) }));
  server.listen({ ${UNHANDLED}: 'error' });
  try {
    const response = await fetch('https://api.example.com/api/g1/ad_config?ref=');
    assert.equal(response.headers.get('x-mockvideo-match'), 'fallback');
    assert.deepEqual(envelopeSchema(adConfigSchema).parse(await response.json()).data, {});
    assert.ok(scenarioNames.includes('gallery'));
  } finally {
    server.close();
  }
});
`;
const NODE_TEST_CJS = `const { test } = require('node:test');
const assert = require('node:assert/strict');
const { setupServer } = require('msw/node');
const { createHandlers } = require('mockvideo');
const { loadScenarioCatalog } = require('mockvideo/node');

test('serves no-recommendations through setupServer (CommonJS)', async () => {
  const server = setupServer(...createHandlers({ scenario: 'no-recommendations', catalog: loadScenarioCatalog() }));
  server.listen({ ${UNHANDLED}: 'error' });
  try {
    const body = await (await fetch('https://api.example.com/api/g1/localplay/recomm?ref=')).json();
    assert.deepEqual(body.data, []);
  } finally {
    server.close();
  }
});
`;

/** The page the browser bundles start: msw's worker with mockvideo's gallery handlers; the outcome lands on window.__mockvideo. */
const BROWSER_PAGE = `import { setupWorker } from 'msw/browser';
import { createHandlers, isScenarioName } from 'mockvideo';
import { envelopeSchema, diversionSetSchema } from 'mockvideo/contract';

async function run() {
  const worker = setupWorker(...createHandlers({ scenario: 'gallery' }));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true, ${UNHANDLED}: 'bypass' });
  const response = await fetch('/api/g1/localplay/diversion?ref=&is_from_gallery=true');
  const body = envelopeSchema(diversionSetSchema).parse(await response.json());
  return { ok: true, status: response.status, scenario: response.headers.get('x-mockvideo-scenario'), end: body.data.end.length, known: isScenarioName('gallery') };
}
run().then((outcome) => (window.__mockvideo = outcome), (error) => (window.__mockvideo = { ok: false, error: String(error && error.stack || error) }));
`;
const BROWSER_HTML = '<!doctype html><html><head><meta charset="utf-8"><title>mockvideo</title></head><body><script type="module" src="/page.js"></script></body></html>\n';

/** A static server at 127.0.0.1 (a secure context, so service workers run). */
function serveFiles(files: Record<string, string>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const body = files[path === '/' ? '/index.html' : path];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
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
    const pack = await timed('npm pack', () => run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT));
    expect(pack.code, explain('npm pack', pack)).toBe(0);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = info!.files.map((f) => f.path).sort();
    const tarball = join(work, info!.filename);

    await mkdir(join(consumer, 'my-scenarios'), { recursive: true });
    await writeFile(join(consumer, 'package.json'), `${JSON.stringify(CONSUMER_PACKAGE, null, 2)}\n`);
    await writeFile(join(consumer, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
    await writeFile(join(consumer, 'mockvideo.test.ts'), CONSUMER_TEST);
    await writeFile(join(consumer, 'my-scenarios/ads-off.json'), `${JSON.stringify(OWN_SCENARIO, null, 2)}\n`);
    await new RecordingWriter(join(consumer, 'recordings')).write(RECORDING);

    const install = await timed('npm install', () =>
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball, `msw@${installedVersion('msw')}`], consumer, 150_000),
    );
    expect(install.code, explain('npm install', install)).toBe(0);
    tarballPath = tarball;

    // The consumer's own vitest runs its root test file only; the folders below are other runners' projects.
    await writeFile(join(consumer, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
    for (const name of LINKED) {
      await mkdir(dirname(join(consumer, 'node_modules', name)), { recursive: true });
      await symlink(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name), 'dir');
    }
    for (const [project, projectFiles] of jestRecipes()) {
      await mkdir(join(consumer, project), { recursive: true });
      await writeFile(join(consumer, project, 'package.json'), `${JSON.stringify({ name: project, private: true, type: PROJECT_TYPE[project] ?? 'commonjs' }, null, 2)}\n`);
      for (const [file, text] of projectFiles) await writeFile(join(consumer, project, file), text);
    }
    // Jest 30 runs the CommonJS recipe with its own babel-jest (found first in the project's node_modules).
    await mkdir(join(consumer, 'commonjs-jest30/node_modules'), { recursive: true });
    for (const file of ['package.json', 'jest.config.js', 'mockvideo.test.js']) await writeFile(join(consumer, 'commonjs-jest30', file), await readFile(join(consumer, 'commonjs', file)));
    await symlink(join(ROOT, 'node_modules/jest30/node_modules/babel-jest'), join(consumer, 'commonjs-jest30/node_modules/babel-jest'), 'dir');
    // Jest 30 with no transform ("the test file is the one of the next recipe").
    await writeFile(join(consumer, 'commonjs-vm/mockvideo.test.js'), await readFile(join(consumer, 'commonjs/mockvideo.test.js')));
    // React Native's Jest environment resolves with require, react-native and node: the CommonJS recipe under those conditions.
    await mkdir(join(consumer, 'react-native'), { recursive: true });
    await writeFile(join(consumer, 'react-native/package.json'), await readFile(join(consumer, 'commonjs/package.json')));
    await writeFile(join(consumer, 'react-native/mockvideo.test.js'), await readFile(join(consumer, 'commonjs/mockvideo.test.js')));
    await writeFile(
      join(consumer, 'react-native/jest.config.js'),
      `const recipe = require('../commonjs/jest.config.js');\nmodule.exports = { ...recipe, testEnvironmentOptions: { customExportConditions: ['require', 'react-native', 'node'] } };\n`,
    );
    await mkdir(join(consumer, 'node-test'), { recursive: true });
    await writeFile(join(consumer, 'node-test/esm.test.mjs'), NODE_TEST_ESM);
    await writeFile(join(consumer, 'node-test/cjs.test.cjs'), NODE_TEST_CJS);
    await mkdir(join(consumer, 'browser'), { recursive: true });
    await writeFile(join(consumer, 'browser/page.js'), BROWSER_PAGE);
    await writeFile(join(consumer, 'browser/index.html'), BROWSER_HTML);
  }, 200_000);

  afterAll(async () => {
    if (timings.length) console.info(`[pack test] ${timings.join(', ')}`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the build, the CLI, the shipped scenarios and the docs, and no tests or recordings', () => {
    for (const path of ['package.json', 'README.md', 'bin/mockvideo.js', 'dist/index.js', 'dist/index.d.ts', 'dist/node.js', 'dist/node.d.ts', 'dist/contract/index.js', 'dist/contract/index.d.ts', 'dist/cli/main.js', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/node.js', 'dist/cjs/contract/index.js', 'dist/cjs/package.json', 'docs/contract.md', 'docs/jest.md', 'scenarios/default.json', 'scenarios/gallery.json', 'scenarios/empty-ad-config.json', 'scenarios/scenario.schema.json']) {
      expect(files, `the tarball lacks ${path}`).toContain(path);
    }
    const unwanted = files.filter((path) => /(^|\/)(test|tests|recordings|scripts|\.ci|node_modules|coverage)\//.test(path) || /\.test\.|\.spec\./.test(path) || /^tsconfig|^vitest\.config|^package-lock/.test(path));
    expect(unwanted, 'files a user does not need').toEqual([]);
  });

  it('installs next to the user\'s msw without a second copy of msw', () => {
    expect(existsSync(join(consumer, 'node_modules/mockvideo/dist/index.js'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules/mockvideo/node_modules/msw')), 'mockvideo brought its own msw').toBe(false);
  });

  it.concurrent('runs a vitest file that serves scenarios through setupServer and checks real fetch answers', async () => {
    const vitest = await timed('consumer vitest', () => run(process.execPath, [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'], consumer));
    expect(vitest.code, explain('vitest run (in the consumer project)', vitest)).toBe(0);
    expect(vitest.stdout).toMatch(/Tests\s+11 passed/);
  }, 120_000);

  it.concurrent.each([
    // skipLibCheck off: our .d.ts files must stand on what a user installs (no @types from our devDependencies).
    ['NodeNext', ['-p', 'tsconfig.json']],
    ['Bundler', ['-p', 'tsconfig.json', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--skipLibCheck']],
  ])('typechecks the consumer test against the published types (%s resolution)', async (mode, args) => {
    const tsc = await timed(`consumer tsc (${mode})`, () => run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...args], consumer));
    expect(tsc.code, explain(`tsc ${args.join(' ')} (in the consumer project)`, tsc)).toBe(0);
  }, 60_000);

  it('bundles mockvideo and mockvideo/contract for browsers, and refuses mockvideo/node there', async () => {
    const bundle = (contents: string) =>
      build({ stdin: { contents, resolveDir: consumer, loader: 'ts' }, bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    const ok = await bundle("export { createHandlers, handlers, scenarioNames } from 'mockvideo';\nexport { envelopeSchema } from 'mockvideo/contract';");
    const text = ok.outputFiles[0]!.text;
    expect(text).toContain('empty-ad-config');
    expect(text).not.toMatch(/from\s*["']node:|require\(["']node:/);
    await expect(bundle("export { loadScenario } from 'mockvideo/node';")).rejects.toThrow(/mockvideo\/node/);
  }, 30_000);

  it('installs a working mockvideo command', async () => {
    const cli = await run(process.execPath, [join(consumer, 'node_modules/mockvideo/bin/mockvideo.js'), 'scenarios'], consumer, 30_000);
    expect(cli.code, explain('mockvideo scenarios', cli)).toBe(0);
    expect(cli.stdout).toContain('gallery');
  }, 40_000);
  /** Runs a Jest CLI in `project` of the consumer; the test files are the project's. */
  const jest = (label: string, bin: string, project: string, env: NodeJS.ProcessEnv = {}) =>
    timed(label, () => run(process.execPath, [join(ROOT, 'node_modules', bin, 'bin/jest.js'), '--ci', '--cacheDirectory', join(work, 'jest-cache', label.replace(/\W+/g, '-'))], join(consumer, project), 120_000, env));

  const VM_MODULES = { NODE_OPTIONS: '--experimental-vm-modules --no-warnings' };
  const jestRuns = ([
    ['Jest 29, CommonJS, babel-jest', 'jest', 'commonjs', {}, 5],
    ['Jest 30, CommonJS, babel-jest', 'jest30', 'commonjs-jest30', {}, 5],
    ['Jest 30, CommonJS, no transform (Node 24.9 or later)', 'jest30', 'commonjs-vm', VM_MODULES, 5],
    ['Jest 29, ts-jest', 'jest', 'ts-jest', {}, 1],
    ['Jest 29, ES modules', 'jest', 'esm', VM_MODULES, 2],
    ['Jest 30, ES modules', 'jest30', 'esm', VM_MODULES, 2],
    ['Jest 29, React Native conditions (require, react-native, node)', 'jest', 'react-native', {}, 5],
  ] as const).filter(([, , project]) => REQUIRES_ESM || project !== 'commonjs-vm'); // that recipe says Node 24.9 or later
  it.concurrent.each(jestRuns)(`runs the docs/jest.md recipe for msw ${MSW_MAJOR} with %s, mockvideo untransformed`, async (label, bin, project, env, tests) => {
    const result = await jest(label, bin, project, env);
    expect(result.code, explain(`jest (${label})`, result)).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`Tests:\\s+${tests} passed, ${tests} total`));
  }, 120_000);

  it.concurrent('runs node --test files that import and require both entries', async () => {
    const result = await timed('node --test', () => run(process.execPath, ['--test', '--test-reporter=tap'], join(consumer, 'node-test'), 60_000));
    expect(result.code, explain('node --test', result)).toBe(0);
    expect(result.stdout).toMatch(/# pass 2\b/);
  }, 60_000);

  it.concurrent('passes publint and attw (every entry resolves under node10, node16 from CommonJS and ESM, bundler)', async () => {
    const publint = await timed('publint', () => run(process.execPath, [join(ROOT, 'node_modules/publint/src/cli.js'), 'run', tarballPath, '--strict'], ROOT, 60_000));
    expect(publint.code, explain('publint', publint)).toBe(0);
    expect(publint.stdout + publint.stderr).not.toMatch(/warning|error|suggestion/i);
    const attw = await timed('attw', () => run(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--format', 'json'], ROOT, 60_000));
    const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems, explain('attw', attw)).toEqual([]);
    expect(attw.code).toBe(0);
  }, 90_000);

  describe.skipIf(skipBrowser)('browser bundles of the consumer page in headless Chromium', () => {
    /** Bundles consumer/browser/page.js with esbuild and with vite; each is served with msw's worker script. */
    const bundles = async (): Promise<Record<'esbuild' | 'vite', string>> => {
      const dir = join(consumer, 'browser');
      const esbuilt = await build({ entryPoints: [join(dir, 'page.js')], bundle: true, platform: 'browser', format: 'esm', target: 'chrome120', write: false, logLevel: 'silent' });
      const { build: viteBuild } = await import('vite');
      const out = join(work, 'vite-out');
      await viteBuild({ root: dir, logLevel: 'silent', configFile: false, build: { outDir: out, emptyOutDir: true, minify: false, modulePreload: false } });
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
          const site = await serveFiles({ '/index.html': BROWSER_HTML, '/page.js': page, '/mockServiceWorker.js': worker });
          servers.push(site.server);
          const tab = await browser.newPage();
          const log: string[] = [];
          tab.on('pageerror', (error) => log.push(error.message));
          await tab.goto(`${site.origin}/`);
          await tab.waitForFunction(() => (window as { __mockvideo?: unknown }).__mockvideo !== undefined, undefined, { timeout: 20_000 });
          const outcome = await tab.evaluate(() => (window as { __mockvideo?: unknown }).__mockvideo);
          expect(outcome, `${bundler} bundle: ${log.join('\n')}`).toMatchObject({ ok: true, status: 200, scenario: 'gallery', known: true });
          expect((outcome as { end: number }).end, bundler).toBeGreaterThan(0);
        }
      } finally {
        await browser.close();
        await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      }
    }, 90_000);
  });
});
