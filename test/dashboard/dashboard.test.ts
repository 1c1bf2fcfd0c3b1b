// The QA dashboard at /__mockvideo/ in headless Debian Chromium (playwright-core), over the real
// CLI on port 0: a request made by a test client appears live, its detail opens, the scenario
// picker switches what the next request gets, an injected fault fires, and a screenshot is saved
// to test-output/dashboard.png.
//
// Without Chromium at MOCKVIDEO_CHROMIUM (default /usr/bin/chromium) the test is skipped and says
// why, unless CI is set: then it fails (.ci/run installs Debian's chromium).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/index.js';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

const OUTPUT = new URL('../../test-output/', import.meta.url);
const skip = skipWithoutChromium('dashboard test');

describe.skipIf(skip)('the dashboard at /__mockvideo/ in headless Chromium', () => {
  let server: CliProcess;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  /** The row of the request list for `operation` that also shows `text`. */
  const row = (operation: string, text: string) =>
    page
      .locator('#requests-body tr')
      .filter({ has: page.getByRole('button', { name: operation }) })
      .filter({ hasText: text });

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0']);
    browser = await launchChromium('dashboard test');
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
    });
    await openDashboard(page, server.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the mode, the active scenario and URLs a device can use', async () => {
    expect(await page.locator('#mode').textContent()).toBe('serve');
    expect(await page.locator('#active-scenario').textContent()).toBe('default');
    const urls = await page.locator('#device-urls').textContent();
    expect(urls).toContain(server.url.replace(/:\d+$/, ''));
    expect(await page.locator('#base-urls').textContent()).toContain(`${server.url}/scenarios/gallery`);
  });

  it('gives every form control a label', async () => {
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')]
        .filter((c) => c.labels?.length === 0)
        .map((c) => c.id),
    );
    expect(unlabelled).toEqual([]);
  });

  it('lists a request made by a test client as it arrives, without a reload', async () => {
    const response = await fetch(`${server.url}${clientPath('meta/cp')}`);
    expect(response.status).toBe(200);
    await row('meta/cp', 'default').waitFor({ timeout: 5_000 });
    await page.waitForFunction(
      () => document.getElementById('announcer')?.textContent?.includes('meta/cp'),
      undefined,
      { timeout: 5_000 },
    );
  });

  it('highlights a request with contract findings', async () => {
    await fetch(`${server.url}/api/g1/meta/setting?_region=india`);
    const flagged = row('meta/setting', 'findings');
    await flagged.waitFor({ timeout: 5_000 });
    expect(await flagged.getAttribute('class')).toContain('has-findings');
  });

  it('opens the detail of a request: the query (secrets redacted), the findings, the body as sent and pretty-printed', async () => {
    await row('meta/cp', 'default').getByRole('button').click();
    const detail = page.locator('#detail');
    await detail.waitFor({ state: 'visible' });
    expect(await page.locator('#detail-heading').textContent()).toMatch(/^Request \d+: GET meta\/cp$/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-heading');
    const query = detail.locator('table.query');
    expect(await query.locator('th[scope="row"]', { hasText: '_sdevid' }).count()).toBe(1);
    expect(await query.textContent()).toContain('abf1bbe2790152de93df075ce357a7f93bdc91ea49ca73715589e2c09e9bc923');
    expect(await query.textContent()).not.toContain('PLACEHOLDER-SERVICE-TOKEN');
    expect(await detail.textContent()).toContain('the request keeps the contract');
    // As sent first; the toggle shows it pretty-printed.
    expect(await detail.locator('pre.body').textContent()).toMatch(/^\{"/);
    await detail.getByRole('button', { name: 'Pretty-print' }).click();
    expect(await detail.locator('pre.body').textContent()).toContain('\n  "msg": "OK"');
  });

  it('switches the scenario for all clients with the picker; the next request is answered from it', async () => {
    await page.getByLabel('Scenario for all clients', { exact: true }).selectOption('gallery');
    await page.getByRole('button', { name: 'Use for all clients' }).click();
    await page.waitForFunction(() => document.getElementById('active-scenario')?.textContent === 'gallery', undefined, {
      timeout: 5_000,
    });
    const response = await fetch(`${server.url}${clientPath('localplay/diversion', { is_from_gallery: 'true' })}`);
    expect(response.headers.get('x-mockvideo-scenario')).toBe('gallery');
    await row('localplay/diversion', 'gallery').waitFor({ timeout: 5_000 });
  });

  it('injects a fault into the next request of an operation and shows it fire', async () => {
    await page.getByLabel('Operation', { exact: true }).selectOption('meta/setting');
    await page.getByLabel('Fault kind', { exact: true }).selectOption('status');
    await page.getByLabel('HTTP status', { exact: true }).fill('503');
    await page.getByLabel('Next N requests', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Inject fault' }).click();
    await page.locator('#faults-body tr', { hasText: 'status 503' }).waitFor({ timeout: 5_000 });

    expect((await fetch(`${server.url}${clientPath('meta/setting')}`)).status).toBe(503);
    await row('meta/setting', 'fault: status').filter({ hasText: '503' }).waitFor({ timeout: 5_000 });
    // The event stream reports the fault fired and used up.
    await page.waitForFunction(
      () => {
        const cells = [...(document.querySelector('#faults-body tr')?.querySelectorAll('td') ?? [])].map(
          (c) => c.textContent,
        );
        return cells[2] === '1' && cells[3] === '0';
      },
      undefined,
      { timeout: 5_000 },
    );
    expect((await fetch(`${server.url}${clientPath('meta/setting')}`)).status).toBe(200);
  });

  it('shows the verify report of the journal, naming the broken rule', async () => {
    await page.getByRole('button', { name: 'Check again' }).click();
    const report = page.locator('#verify-report');
    await report.locator('li.bad', { hasText: 'requests-keep-the-contract' }).waitFor({ timeout: 5_000 });
  });

  it('reads well on a laptop and a tablet (screenshots in test-output/)', async () => {
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: fileURLToPath(new URL('dashboard.png', OUTPUT)), fullPage: true });
    await page.setViewportSize({ width: 768, height: 1024 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-tablet.png', OUTPUT)), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('sends JSON and the saved admin token with each change (for steering from another device)', async () => {
    const sent: Array<Record<string, string>> = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && request.url().includes('/__mockvideo/')) sent.push(request.headers());
    });
    await page.getByText('Steering from another device').click();
    await page.getByLabel('Admin token', { exact: true }).fill('s3cret');
    await page.getByRole('button', { name: 'Save token' }).click();
    await page.getByRole('button', { name: 'Clear faults' }).click();
    await page.locator('#faults-empty').waitFor({ state: 'visible', timeout: 5_000 });
    expect(sent).toEqual([
      expect.objectContaining({ authorization: 'Bearer s3cret', 'content-type': 'application/json' }),
    ]);
  });

  it('clears the journal', async () => {
    await page.getByRole('button', { name: 'Clear journal' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#requests-body tr').length === 0, undefined, {
      timeout: 5_000,
    });
    const { requests } = (await (await fetch(`${server.url}/__mockvideo/requests`)).json()) as {
      requests: JournalEntry[];
    };
    expect(requests).toEqual([]);
    expect(await page.locator('#requests-empty').isVisible()).toBe(true);
  });

  it('raised no script error and no content security policy violation', () => {
    expect(pageErrors).toEqual([]);
  });
});
