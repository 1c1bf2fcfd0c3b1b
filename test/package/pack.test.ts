// The package as users get it: `npm pack`, then install the tarball with msw and vitest into a fresh
// project outside this repository and run a vitest file there that imports `mockvideo`,
// `mockvideo/node` and `mockvideo/contract` by name (so the exports map, the types and the peer
// dependency on msw are what is tested, not our source tree). Needs the build (`npm test` runs it
// in `pretest`) and the npm registry (the npm cache usually answers: `--prefer-offline`).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: childEnv(), timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
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

// The test file a user would write: imports by package name only.
const CONSUMER_TEST = `import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createHandlers, handlers, scenarioNames, UnknownScenarioError } from 'mockvideo';
import { createReplayHandlers, loadScenario } from 'mockvideo/node';
import { adConfigSchema, contentProvidersSchema, envelopeSchema, toServiceJson, type AdConfig, type ContentProvider, type Envelope } from 'mockvideo/contract';

const API = 'https://api.example.com/api/g1';
const QUERY = '?ref=&_st=PLACEHOLDER&_region=IN';
const server = setupServer(...createHandlers({ scenario: 'empty-ad-config' }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

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

it('throws for an unknown scenario, naming the known ones', () => {
  expect(() => createHandlers({ scenario: 'galery' })).toThrow(UnknownScenarioError);
  expect(() => createHandlers({ scenario: 'galery' })).toThrow(/Unknown scenario "galery".*default.*empty-ad-config.*gallery/);
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

describe('the npm package', () => {
  let work = '';
  let consumer = '';
  let files: string[] = [];
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
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball, `msw@${installedVersion('msw')}`, `vitest@${installedVersion('vitest')}`], consumer, 150_000),
    );
    expect(install.code, explain('npm install', install)).toBe(0);
  }, 200_000);

  afterAll(async () => {
    if (timings.length) console.info(`[pack test] ${timings.join(', ')}`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the build, the CLI, the shipped scenarios and the docs, and no tests or recordings', () => {
    for (const path of ['package.json', 'README.md', 'bin/mockvideo.js', 'dist/index.js', 'dist/index.d.ts', 'dist/node.js', 'dist/node.d.ts', 'dist/contract/index.js', 'dist/contract/index.d.ts', 'dist/cli/main.js', 'scenarios/default.json', 'scenarios/gallery.json', 'scenarios/empty-ad-config.json', 'scenarios/scenario.schema.json']) {
      expect(files, `the tarball lacks ${path}`).toContain(path);
    }
    const unwanted = files.filter((path) => /(^|\/)(test|tests|recordings|scripts|\.ci|node_modules|coverage)\//.test(path) || /\.test\.|\.spec\./.test(path) || /^tsconfig|^vitest\.config|^package-lock/.test(path));
    expect(unwanted, 'files a user does not need').toEqual([]);
  });

  it('installs next to the user\'s msw without a second copy of msw', () => {
    expect(existsSync(join(consumer, 'node_modules/mockvideo/dist/index.js'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules/mockvideo/node_modules/msw')), 'mockvideo brought its own msw').toBe(false);
  });

  it('runs a vitest file that serves scenarios through setupServer and checks real fetch answers', async () => {
    const vitest = await timed('consumer vitest', () => run(process.execPath, [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'], consumer));
    expect(vitest.code, explain('vitest run (in the consumer project)', vitest)).toBe(0);
    expect(vitest.stdout).toMatch(/Tests\s+10 passed/);
  }, 120_000);

  it.each([
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
});
