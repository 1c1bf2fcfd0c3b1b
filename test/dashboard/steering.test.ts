// Per-device steering from the dashboard (issue 41, item 1), in headless Debian Chromium over the
// real CLI: two phones on one server, each given its own scenario from its card's picker (no URL
// prefix), a fault aimed at one of them from the fault form, then one given back to the server's
// scenario; the cards and lanes say what steers each. Screenshot in test-output/.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/contract/index.js';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

const skip = skipWithoutChromium('dashboard steering test');

/** Two made-up phones (never real identifiers). */
const A = 'a1'.repeat(32);
const B = '5e'.repeat(32);

const pathOf = (sdevid: string, operation: OperationName) =>
  clientPath(operation).replace(/_sdevid=[^&]*/, `_sdevid=${sdevid}`);

let browser: Browser | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!skip) browser = await launchChromium('dashboard steering test');
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(skip)('two phones, two scenarios, set from the dashboard', () => {
  let server: CliProcess;
  let page: Page;
  /** What answered `operation` for `sdevid`: `<scenario> <status>`. */
  const answered = async (sdevid: string, operation: OperationName = 'meta/cp') => {
    const response = await fetch(`${server.url}${pathOf(sdevid, operation)}`);
    await response.arrayBuffer();
    return `${response.headers.get('x-mockvideo-scenario')} ${response.status}`;
  };
  const card = (sdevid: string) => page.locator(`#device-list li[data-device="${sdevid}"]`);
  const choose = async (sdevid: string) => {
    const button = card(sdevid).getByRole('button', { name: /^Show(ing)? only this device$/ });
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
    await page.locator('#device-scenario-label', { hasText: `Scenario for ${sdevid.slice(0, 8)}…` }).waitFor();
  };

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch']);
    for (const sdevid of [A, B]) await answered(sdevid);
    page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
    });
    await openDashboard(page, server.url);
    await card(B).waitFor({ timeout: 5_000 });
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    await server?.stop();
  });

  it("shows each device's scenario on its card: the server's until it has one of its own", async () => {
    expect(await card(A).textContent()).toContain(`Scenario"default" (the server's)`);
    // No device chosen: no device picker.
    expect(await page.locator('#device-scenario-form').isVisible()).toBe(false);
  });

  it('gives the chosen device the scenario picked; the other device is untouched', async () => {
    await choose(A);
    await page.locator('#device-scenario-picker').selectOption('gallery');
    await page.getByRole('button', { name: 'Use for this device' }).click();
    await page.locator('#device-scenario-status', { hasText: 'now answers from "gallery"' }).waitFor();
    expect(await answered(A)).toBe('gallery 200');
    expect(await answered(B)).toBe('default 200');
    await card(A).filter({ hasText: `"gallery" (its own)` }).waitFor({ timeout: 5_000 });
    expect(await page.locator('#device-scenario-note').textContent()).toContain(`Answers from "gallery" (its own).`);

    await choose(B);
    // The picker shows the chosen device's scenario.
    expect(await page.locator('#device-scenario-picker').inputValue()).toBe('default');
    await page.locator('#device-scenario-picker').selectOption('non-gallery');
    await page.getByRole('button', { name: 'Use for this device' }).click();
    await page.locator('#device-scenario-status', { hasText: 'now answers from "non-gallery"' }).waitFor();
    expect([await answered(A), await answered(B)]).toEqual(['gallery 200', 'non-gallery 200']);
    // The device's lane says it too.
    await page.locator(`#lanes .lane[data-device="${B}"] h3`, { hasText: 'scenario non-gallery' }).waitFor();
    expect(server.stdout()).toContain(`admin: device 5e5e5e5e5e5e…: scenario "non-gallery" now answers its requests`);
  });

  it('aims a fault at the chosen device from the fault form: it reaches only that device', async () => {
    await page.getByLabel('Device', { exact: true }).selectOption(B);
    await page.getByLabel('Operation').selectOption('meta/setting');
    await page.getByLabel('Fault kind').selectOption('status');
    await page.getByLabel('HTTP status').fill('503');
    await page.getByLabel('Next N requests').fill('1');
    await page.getByRole('button', { name: 'Inject fault' }).click();
    await page.locator('#fault-status', { hasText: /Planned fault \d+: status 503 .* only\./ }).waitFor();
    expect(await page.locator('#faults-body tr').last().locator('td').first().innerText()).toBe(
      'meta/setting\nonly 5e5e5e5e…',
    );
    await card(B).filter({ hasText: 'Aimed faultsmeta/setting: status 503, 1 left' }).waitFor({ timeout: 5_000 });
    await page
      .locator(`#lanes .lane[data-device="${B}"] h3`, { hasText: 'scenario non-gallery · 1 aimed fault' })
      .waitFor();
    expect(await answered(A, 'meta/setting')).toBe('gallery 200');
    expect(await answered(B, 'meta/setting')).toBe('non-gallery 503');
    expect(await answered(B, 'meta/setting')).toBe('non-gallery 200');
    // Used up: the card says so, the lane counts it no more.
    await card(B).filter({ hasText: 'meta/setting: status 503, used up' }).waitFor({ timeout: 5_000 });
    expect(await page.locator(`#lanes .lane[data-device="${B}"] h3`).textContent()).not.toContain('aimed fault');
  });

  it("gives a device back to the server's scenario", async () => {
    await choose(A);
    await page.getByRole('button', { name: 'Follow the server' }).click();
    await page
      .locator('#device-scenario-status', { hasText: `follows the server's scenario "default" again` })
      .waitFor();
    expect([await answered(A), await answered(B)]).toEqual(['default 200', 'non-gallery 200']);
    // Nothing to give back any more, once the page has read the devices again.
    await expect.poll(() => page.getByRole('button', { name: 'Follow the server' }).isDisabled()).toBe(true);
  });

  it('reads well at 1,400 and 360 px (screenshots in test-output/)', async () => {
    const shots = new URL('../../test-output/', import.meta.url);
    mkdirSync(shots, { recursive: true });
    await choose(B);
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-steering-1400.png', shots)), fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-steering-360.png', shots)), fullPage: true });
  });

  it('raised no script error and no CSP violation', () => {
    expect(pageErrors).toEqual([]);
  });
});
