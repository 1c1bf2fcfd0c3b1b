// Issue 41, item 2, in headless Chromium over the real CLI (skipped without Chromium unless CI is
// set): "Download bundle" on a start-up of the dashboard saves that start-up's bundle.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/bundle/bundle-schema.js';
import { FAULTY_START_UP, faultyStartUp, journaled, leaks, planStartUpFaults } from '../support/bundles.js';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';

const skip = skipWithoutChromium('dashboard bundle test');

describe.skipIf(skip)('the dashboard', () => {
  let server: CliProcess;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--fuzz', '42']);
    await planStartUpFaults(server.url);
    await faultyStartUp(server.url);
    await journaled(server.url, FAULTY_START_UP.length);
    browser = await launchChromium('dashboard bundle test');
    page = await browser.newPage({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    await openDashboard(page, server.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("saves a start-up's bundle from its Download bundle button", async () => {
    const button = page.locator('.burst').getByRole('link', { name: /^Download the bundle of the start-up at / });
    await button.waitFor({ timeout: 10_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^mockvideo-bundle-\d+\.json$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const bundle = parseBundle(JSON.parse(text), download.suggestedFilename());
    expect(bundle.exchanges.map((x) => x.operation)).toEqual(FAULTY_START_UP);
    expect(bundle.exchanges[2]).toMatchObject({ fault: 'reset', answer: null });
    expect(download.suggestedFilename()).toBe(`mockvideo-bundle-${bundle.verdict.id}.json`);
    expect(leaks(text)).toEqual([]);
  });
});
