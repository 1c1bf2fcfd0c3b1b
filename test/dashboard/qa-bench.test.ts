// The dashboard as a new QA user first sees it (issue 41, item 4), in headless Debian Chromium at
// 360 px over the real CLI: no red before any device called, the server facts explained where they
// are shown, and a requests table whose operation and status are on screen without scrolling
// sideways. The screenshot goes to test-output/dashboard-requests-360.png.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { scriptedStartUp } from '../support/junit.js';

const OUTPUT = new URL('../../test-output/', import.meta.url);
const skip = skipWithoutChromium('dashboard QA bench test');

describe.skipIf(skip)('the dashboard on a 360 px phone, as a new user sees it', () => {
  let server: CliProcess;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    browser = await launchChromium('dashboard QA bench test');
    page = await browser.newPage({ viewport: { width: 360, height: 780 } });
    await openDashboard(page, server.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows no red in verify before any device has called, and says what it waits for', async () => {
    const report = page.locator('#verify-report');
    await report.getByText(/No device has called yet/).waitFor({ timeout: 5_000 });
    expect(await report.locator('.bad').count()).toBe(0);
  });

  it('explains "Scenarios version" and "State" where it shows them', async () => {
    const explained = async (term: string) =>
      (await page
        .locator('#server-details dt', { hasText: term })
        .locator('xpath=following-sibling::dd[1]')
        .textContent()) ?? '';
    expect(await explained('Scenarios version')).toMatch(
      /^1.*1 at start, one more for each reload of the scenario files/,
    );
    expect(await explained('State')).toMatch(/^client.*sequences and fault counts are kept per device/);
  });

  it('keeps the operation and the status of every request on screen at 360 px', async () => {
    await scriptedStartUp(server.url, 'a'.repeat(64));
    await scriptedStartUp(server.url, 'b'.repeat(64), { diversionFlag: false });
    await page.locator('#requests-body tr').nth(11).waitFor({ timeout: 5_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll('#requests-body tr')].map((row) =>
        ['button', '.status', 'time'].map((selector) => {
          const box = row.querySelector(selector)!.getBoundingClientRect();
          return box.left >= 0 && box.right <= 360;
        }),
      ),
    );
    expect(cells).toEqual(Array(12).fill([true, true, true]));
    // A card names what it shows: the scenario and the findings are labelled.
    const labels = await page.evaluate(() =>
      [...document.querySelectorAll('#requests-body tr:first-child td')].map(
        (td) => `${getComputedStyle(td, '::before').content} ${td.textContent}`,
      ),
    );
    expect(labels).toEqual(expect.arrayContaining(['"Scenario " default', '"Findings " none']));
    mkdirSync(OUTPUT, { recursive: true });
    // Once the lanes above have their verdicts (drawn as they come), the section stays where it is.
    await page.waitForTimeout(1000);
    const section = page.locator('section[aria-labelledby="requests-heading"]');
    await section.screenshot({ path: fileURLToPath(new URL('dashboard-requests-360.png', OUTPUT)) });
  });
});
