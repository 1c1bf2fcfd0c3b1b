// The files of the consumer projects that test/package/pack.test.ts makes from `npm pack`: what a
// user writes (a vitest file, `node --test` files, a browser page), the Jest projects of
// docs/jest.md for the msw major under test, and what those files read (a scenario file, a
// recording). Imports by package name only.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownBlocks } from '../support/markdown-blocks.js';
import { MSW_MAJOR } from '../support/msw-major.js';
import { DEFAULT_POLICY, matchKey, type RawPair, type Recording } from '../../src/normalise/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const CONSUMER_PACKAGE = {
  name: 'mockvideo-consumer',
  version: '0.0.0',
  private: true,
  type: 'module',
};

export const CONSUMER_TSCONFIG = {
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
export const OWN_SCENARIO = {
  description: 'Gallery recommendations with advertising switched off',
  extends: 'gallery',
  operations: { ad_config: { data: { enabled: false } } },
};

/** One recorded exchange of meta/cp, its body as the upstream wrote it; replayed by `createReplayHandlers` of `mockvideo/node`. */
const RECORDED_QUERY: RawPair[] = [
  ['ref', ''],
  ['_region', 'IN'],
  ['_st', '<SERVICE_TOKEN>'],
  ['_nonce', '1210681715'],
];
const RECORDED_BODY =
  '{"data":[{"id":"recorded","name":"Recorded \\u0026 Co","apk_url":"","app_icon":"","top_right_logo":"","cp_link":""}],"msg":"OK","result":1}';
export const RECORDING: Recording = {
  operation: 'meta/cp',
  matchKey: matchKey('GET', 'meta/cp', RECORDED_QUERY, DEFAULT_POLICY),
  recordedAt: '2026-01-01T00:00:00.000Z',
  request: { method: 'GET', path: '/api/g1/meta/cp', query: RECORDED_QUERY, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: RECORDED_BODY },
};

// The test file a user would write: imports by package name only.
export const CONSUMER_TEST = `import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createHandlers, handlers, isScenarioName, onUnhandled, scenarioNames, UnknownScenarioError } from 'mockvideo';
import { createReplayHandlers, loadScenario } from 'mockvideo/node';
import { adConfigSchema, contentProvidersSchema, envelopeSchema, toServiceJson, type AdConfig, type ContentProvider, type Envelope } from 'mockvideo/contract';

const API = 'https://api.example.com/api/g1';
const QUERY = '?ref=&_st=PLACEHOLDER&_region=IN';
const server = setupServer(...createHandlers({ scenario: 'empty-ad-config' }));

beforeAll(() => server.listen(onUnhandled('error')));
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

/**
 * Packages of this repository's devDependencies the consumer's runners load by name (linked, not
 * installed: a faster run): vitest, and ts-jest for Jest 29. Jest 30, babel-jest 30 and the Babel
 * plugins come from the registry, installed by the docs' own line (see {@link babelJestLine}).
 */
export const LINKED = ['vitest', 'ts-jest'];

/**
 * The Jest projects of docs/jest.md ("Use with Jest") for the msw major installed: each `<!--
 * consumer: <project>/<file> -->` block is that file (a block marked `<!-- msw: N -->` only under
 * msw N; the recipes are written for both, with `onUnhandled`).
 */
export function jestRecipes(): Map<string, Map<string, string>> {
  const projects = new Map<string, Map<string, string>>();
  for (const block of markdownBlocks(join(ROOT, 'docs/jest.md'))) {
    if (!block.consumer || (block.msw !== undefined && block.msw !== MSW_MAJOR)) continue;
    const [project, ...file] = block.consumer.split('/');
    if (!projects.has(project!)) projects.set(project!, new Map());
    projects.get(project!)!.set(file.join('/'), block.code);
  }
  return projects;
}

/** Every documentation file a user reads: the README and docs/*.md. */
function docFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** One `npm install` line of the docs: the line as written and where it is first. */
export interface InstallLine {
  line: string;
  where: string;
}

/**
 * Each distinct `npm install <packages>` line of the shell blocks of the README and docs/ (issue 43:
 * they must install as written into an empty project, against the registry's current versions). A
 * bare `npm install` (a clone's own, the README's first command) installs no package of the
 * registry's choosing and is left out.
 */
export function docsInstallLines(): InstallLine[] {
  const lines = new Map<string, string>();
  for (const file of docFiles())
    for (const block of markdownBlocks(join(ROOT, file))) {
      if (block.lang !== 'sh') continue;
      block.code.split('\n').forEach((text, i) => {
        const line = text.replace(/\s+#.*$/, '').trim();
        if (/^npm (install|i) (?!&&)\S/.test(line) && !lines.has(line))
          lines.set(line, `${file}:${block.line + 1 + i}`);
      });
    }
  return [...lines].map(([line, where]) => ({ line, where }));
}

/** The `npm install` arguments of `line` with the package name `mockvideo` replaced by the packed `tarball` (it is not on the registry). */
export function installArgs(line: string, tarball: string): string[] {
  return line
    .split(/\s+/)
    .slice(1)
    .map((arg) => (arg === 'mockvideo' ? tarball : arg));
}

/** docs/jest.md's install line of the babel-jest recipe: the one the consumer project installs in full (Jest 30, babel-jest, the Babel plugins). */
export function babelJestLine(): InstallLine {
  const line = docsInstallLines().find(({ line }) => line.includes('@babel/plugin-transform-modules-commonjs'));
  if (!line) throw new Error('docs/jest.md has no npm install line with @babel/plugin-transform-modules-commonjs');
  return line;
}

/** The code of the first ts/js block of `file` that starts with `firstLine`. */
export function docBlock(file: string, firstLine: string): string {
  const block = markdownBlocks(join(ROOT, file)).find((b) => b.code.startsWith(firstLine));
  if (!block) throw new Error(`${file} has no code block starting with ${JSON.stringify(firstLine)}`);
  return block.code;
}

/**
 * A test appended to the docs' `unmockedRequests` examples (they define `loadSettings`): its loader
 * calls a path no handler answers and falls back to its defaults, so its own expect passes; only
 * `unmocked.check()` in afterEach can fail it, naming the request.
 */
export const SWALLOWED_TEST = `
it('shows the defaults when the settings cannot load', async () => {
  const settings = await loadSettings('https://api.example.com/api/g2/settings');
  expect(settings.codec_level).toBe('0');
});
`;

/** Node 24.9 or later: `require` of ES modules without a flag, which Jest 30's CommonJS mode uses under VM modules. */
export const REQUIRES_ESM = ((major, minor) => major > 24 || (major === 24 && minor >= 9))(
  ...(process.versions.node.split('.').map(Number) as [number, number]),
);

/** The `"type"` of each Jest project's package.json. */
export const PROJECT_TYPE: Record<string, 'commonjs' | 'module'> = {
  commonjs: 'commonjs',
  'commonjs-vm': 'commonjs',
  'ts-jest': 'commonjs',
  esm: 'module',
};

/** `node --test` files: the ES module and the CommonJS build, both entries. */
export const NODE_TEST_ESM = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setupServer } from 'msw/node';
import { createHandlers, onUnhandled, scenarioNames } from 'mockvideo';
import { createReplayHandlers } from 'mockvideo/node';
import { envelopeSchema, adConfigSchema } from 'mockvideo/contract';

test('serves empty-ad-config through setupServer (ES modules)', async () => {
  const server = setupServer(...createReplayHandlers([], { fallback: createHandlers({ scenario: 'empty-ad-config' }) }));
  server.listen(onUnhandled('error'));
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
export const NODE_TEST_CJS = `const { test } = require('node:test');
const assert = require('node:assert/strict');
const { setupServer } = require('msw/node');
const { createHandlers, onUnhandled } = require('mockvideo');
const { loadScenarioCatalog } = require('mockvideo/node');

test('serves no-recommendations through setupServer (CommonJS)', async () => {
  const server = setupServer(...createHandlers({ scenario: 'no-recommendations', catalog: loadScenarioCatalog() }));
  server.listen(onUnhandled('error'));
  try {
    const body = await (await fetch('https://api.example.com/api/g1/localplay/recomm?ref=')).json();
    assert.deepEqual(body.data, []);
  } finally {
    server.close();
  }
});
`;

/** The page the browser bundles start: msw's worker with mockvideo's gallery handlers, unmocked requests refused; the outcome lands on window.__mockvideo. */
export const BROWSER_PAGE = `import { setupWorker } from 'msw/browser';
import { createHandlers, isScenarioName, onUnhandled } from 'mockvideo';
import { envelopeSchema, diversionSetSchema } from 'mockvideo/contract';

async function run() {
  const worker = setupWorker(...createHandlers({ scenario: 'gallery' }));
  await worker.start({ ...onUnhandled('error'), serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
  const response = await fetch('/api/g1/localplay/diversion?ref=&is_from_gallery=true');
  const body = envelopeSchema(diversionSetSchema).parse(await response.json());
  // The static server would answer 404: under 'error' msw refuses the request instead (a network error, or msw's 500 naming the strategy).
  const unmocked = await fetch('/health').then((answer) => answer.status, () => 'failed');
  return { ok: true, status: response.status, scenario: response.headers.get('x-mockvideo-scenario'), end: body.data.end.length, known: isScenarioName('gallery'), unmocked };
}
run().then((outcome) => (window.__mockvideo = outcome), (error) => (window.__mockvideo = { ok: false, error: String(error && error.stack || error) }));
`;
export const BROWSER_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>mockvideo</title></head><body><script type="module" src="/page.js"></script></body></html>\n';
