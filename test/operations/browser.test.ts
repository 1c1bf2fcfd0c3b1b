// The shared behaviour suite's representative subset in headless Chromium: MSW's service worker
// with createScenarioHandlers (setupWorker), the page's own fetch calls compared with the reference.
// Skipped without Chromium at MOCKVIDEO_CHROMIUM (default /usr/bin/chromium), unless CI is set.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import { answerHeaders, bodyOf, operationsSuite, withLength, type Seen } from '../operations.suite.js';
import type { PageSeen } from './fixtures/suite-page.js';

const WORKER_SCRIPT = fileURLToPath(new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url));
const skip = skipWithoutChromium('browser suite');

describe.skipIf(skip)('the shared suite in headless Chromium (setupWorker)', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let page: Page;
  let origin = '';

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('./fixtures/suite-page.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'silent',
    });
    const files: Record<string, [string, string]> = {
      '/': [
        'text/html; charset=utf-8',
        '<!doctype html><meta charset="utf-8"><title>mockvideo suite</title><script type="module" src="/page.js"></script>',
      ],
      '/page.js': ['text/javascript; charset=utf-8', bundle.outputFiles[0]!.text],
      '/mockServiceWorker.js': ['text/javascript; charset=utf-8', readFileSync(WORKER_SCRIPT, 'utf8')],
    };
    server = createServer((req, res) => {
      const file = files[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
      if (file) res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found (the worker should have answered)');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium('browser suite');
    page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => window.__ready !== undefined, undefined, { timeout: 20_000 });
    const ready = await page.evaluate(() => window.__ready);
    if (ready !== true) throw new Error(`The worker did not start: ${String(ready)}`);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  operationsSuite({
    name: 'Chromium setupWorker',
    subset: true,
    start: async (config) => {
      if (config.mode !== 'serve') throw new Error('the browser subset serves scenarios only');
      const suiteScenario = JSON.parse(readFileSync(join(config.scenariosDir, 'suite.json'), 'utf8')) as unknown;
      await page.evaluate((pageConfig) => window.__configure!(pageConfig), {
        suiteScenario,
        faults: [...config.faults],
        strictRequests: config.strictRequests ?? false,
      });
      return {
        origin,
        send: async (exchange): Promise<Seen> => {
          // HEAD is asked as GET (the routes answer both alike) for its length, its body dropped, as a Node host does.
          const asked = exchange.method === 'HEAD' ? { ...exchange, method: 'GET' as const } : exchange;
          const seen = (await page.evaluate((sent) => window.__send!(sent), asked)) as PageSeen;
          if (seen === 'reset') return 'reset';
          const bytes = Buffer.from(seen.body, 'hex');
          return {
            status: seen.status,
            headers: withLength(answerHeaders(seen.headers), seen.status, bytes),
            body: bodyOf(exchange.method === 'HEAD' ? new Uint8Array() : bytes, origin),
          };
        },
        close: async () => {},
      };
    },
  });
});
