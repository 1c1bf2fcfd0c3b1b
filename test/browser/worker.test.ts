// mockvideo in a real browser: headless Debian Chromium (driven by playwright-core, never a
// downloaded browser) loads a page whose bundle starts MSW's service worker with the gallery
// handlers of `mockvideo`, and the test checks what the page's own fetch calls got.
//
// Without Chromium at MOCKVIDEO_CHROMIUM (default /usr/bin/chromium) the test is skipped and says
// why, unless CI is set: then it fails, because CI must run it (.ci/run installs Debian's chromium).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import type { PageOutcome } from './fixtures/page.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const WORKER_SCRIPT = fileURLToPath(new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url));

const skip = skipWithoutChromium('browser test');

interface DiversionEnvelope {
  data: Record<'end' | 'exit' | 'suspend', Array<{ id: string }>>;
  msg: string;
  result: number;
}

/** Bundles the page for browsers; a `node:*` import reachable from src/index.ts fails here. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('page.ts', FIXTURES))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A static server at 127.0.0.1 (a secure context, so service workers run) that records every path asked. */
function serve(
  files: Record<string, { type: string; body: string }>,
): Promise<{ server: Server; origin: string; requested: string[] }> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requested.push(path);
    const file = files[path === '/' ? '/index.html' : path];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: ${path}`);
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested }),
    );
  });
}

describe.skipIf(skip)('mockvideo in headless Chromium (setupWorker)', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let requested: string[] = [];
  let outcome: Extract<PageOutcome, { ok: true }>;
  const pageLog: string[] = [];
  const timings: string[] = [];
  let started = Date.now();
  const lap = (label: string) => {
    timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
  };

  beforeAll(async () => {
    const js = 'text/javascript; charset=utf-8';
    const site = await serve({
      '/index.html': { type: 'text/html; charset=utf-8', body: readFileSync(new URL('index.html', FIXTURES), 'utf8') },
      '/page.js': { type: js, body: await bundlePage() },
      '/mockServiceWorker.js': { type: js, body: readFileSync(WORKER_SCRIPT, 'utf8') },
    });
    server = site.server;
    requested = site.requested;
    lap('bundle');

    browser = await launchChromium('browser test');
    lap('launch');
    const page = await browser.newPage();
    page.on('console', (message) => pageLog.push(`console.${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => pageLog.push(`pageerror: ${error.message}`));
    await page.goto(`${site.origin}/`);
    await page
      .waitForFunction(() => window.__mockvideo !== undefined, undefined, { timeout: 20_000 })
      .catch((error: Error) => {
        throw new Error(`The page never finished: ${error.message}\n${pageLog.join('\n')}`);
      });
    const result = (await page.evaluate(() => window.__mockvideo))!;
    if (!result.ok) throw new Error(`The page failed: ${result.error}\n${pageLog.join('\n')}`);
    outcome = result;
    lap('page');
  }, 90_000);

  afterAll(async () => {
    if (timings.length) console.info(`[browser test] ${timings.join(', ')}`);
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('starts the service worker, which then controls the page', () => {
    expect(outcome.controlled).toBe(true);
    expect(requested).toContain('/mockServiceWorker.js');
  });

  it('answers is_from_gallery=true with items in end, exit and suspend', () => {
    const { status, scenario, text } = outcome.galleryTrue;
    expect([status, scenario]).toEqual([200, 'gallery']);
    const body = JSON.parse(text) as DiversionEnvelope;
    expect([body.msg, body.result]).toEqual(['OK', 1]);
    for (const list of ['end', 'exit', 'suspend'] as const) expect(body.data[list].length, list).toBeGreaterThan(0);
  });

  it('answers is_from_gallery=false with three empty arrays', () => {
    expect(outcome.galleryFalse.status).toBe(200);
    expect((JSON.parse(outcome.galleryFalse.text) as DiversionEnvelope).data).toEqual({
      end: [],
      exit: [],
      suspend: [],
    });
  });

  it("keeps the service's \\u0026 escapes in the raw text the page reads", () => {
    expect(outcome.galleryTrue.text).toContain('\\u0026');
    expect(outcome.galleryTrue.text).not.toMatch(/"target":"[^"]*&/);
    expect(outcome.contentProviders.status).toBe(200);
    expect(outcome.contentProviders.text).toContain('\\u0026');
    expect((JSON.parse(outcome.contentProviders.text) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('answers from the worker: no /api/g1 request reaches the network', () => {
    expect(requested.filter((path) => path.startsWith('/api/'))).toEqual([]);
  });

  it('bundles the shipped scenarios and names them when a scenario is unknown', () => {
    expect(outcome.scenarioNames).toContain('gallery');
    expect(outcome.unknownScenarioMessage).toMatch(/Unknown scenario "galery".*gallery/);
  });
});
