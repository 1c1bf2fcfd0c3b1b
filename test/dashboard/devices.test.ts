// The dashboard as QA uses it with two phones on one server (issue 19), in headless Debian Chromium
// over the real CLI: two devices run interleaved start-ups, one with a broken parameter, one hitting
// a fault; the page shows a lane per device with verify's verdict per start-up, filters by device,
// downloads one device's HAR, places the analytics record in its device's lane, shows the raw
// `\u0026`; in replay it names the recording and the match kind of every answer and offers no
// scenario picker without a fallback. Screenshots at 1,400 and 360 px go to test-output/ (to docs/,
// the ones the guide shows, with MOCKVIDEO_SCREENSHOTS=docs).
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/contract/index.js';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordSession, removeTempDirs } from '../support/recordings.js';

/** Where the screenshots go: test-output/, or docs/ (the committed ones) with MOCKVIDEO_SCREENSHOTS=docs. */
const SHOTS = new URL(
  process.env.MOCKVIDEO_SCREENSHOTS === 'docs' ? '../../docs/' : '../../test-output/',
  import.meta.url,
);
const skip = skipWithoutChromium('dashboard devices test');

/** Two made-up phones (never real identifiers): their `_sdevid`, `_anoyid` and `_model` as sent. */
const PHONE_A = {
  sdevid: 'a1'.repeat(32),
  anoyid: '0f1e2d3c-4b5a-4968-8776-655443322110',
  model: 'Redmi%20Note%2012%20Pro%2B',
  andver: '33',
};
const PHONE_B = {
  sdevid: '5e'.repeat(32),
  anoyid: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  model: 'Pixel%207',
  andver: '34',
};
type Phone = typeof PHONE_A;

const START_UP: OperationName[] = [
  'ad_config',
  'meta/cp',
  'meta/setting',
  'meta/plugin',
  'localplay/diversion',
  'localplay/recomm',
];

/** The client path of `operation` as `phone` sends it; `broken` leaves `is_from_gallery` out of the diversion. */
function phonePath(phone: Phone, operation: OperationName, broken = false): string {
  let path = clientPath(operation)
    .replace(/_sdevid=[^&]*/, `_sdevid=${phone.sdevid}`)
    .replace(/_anoyid=[^&]*/, `_anoyid=${phone.anoyid}`)
    .replace(/_model=[^&]*/, `_model=${phone.model}`)
    .replace(/_andver=[^&]*/, `_andver=${phone.andver}`);
  if (broken) path = path.replace('is_from_gallery=true&', '');
  return path;
}

/** An analytics record as `phone` sends it (page_view without `package_from`: one finding). */
function analyticsRecord(phone: Phone): Record<string, string> {
  return {
    _device: 'ruby',
    _res: 'hd1080',
    _anoyid: phone.anoyid,
    _nettype: '4',
    _oemui: 'V140',
    _ts: String(Date.now()),
    _locale: 'en_IN',
    _ver: '2024062790(stable)',
    _model: decodeURIComponent(phone.model),
    _andver: phone.andver,
    _appver: '2024062790',
    _region: 'IN',
    _oemuiver: 'V14.0.3.0.TMPINXM',
    _language: 'English',
    ref: 'com.example.videoplayer',
    _isoemui: '1',
    _plyver: '20240611',
    type: 'page_view',
    page_name: 'local_player',
  };
}

let browser: Browser | undefined;
const pageErrors: string[] = [];

async function newDashboardPage(url: string, width = 1400): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console.error: ${message.text()}`);
  });
  // Nothing may leave the server: every request of the page goes to its own origin.
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('data:'))
      pageErrors.push(`left the server: ${request.url()}`);
  });
  await openDashboard(page, url);
  return page;
}

beforeAll(async () => {
  if (!skip) browser = await launchChromium('dashboard devices test');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  removeTempDirs();
});

describe.skipIf(skip)('two phones on one server: lanes, verdicts, filter, HAR, analytics', () => {
  let server: CliProcess;
  let page: Page;
  const lane = (phone: Phone) => page.locator(`#lanes .lane[data-device="${phone.sdevid}"]`);

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0']);
    page = await newDashboardPage(server.url);
    // A fault for phone B's meta/setting, once overall ("state": "global"; per device by default): its request goes first.
    const planned = await fetch(`${server.url}/__mockvideo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'meta/setting', kind: 'status', status: 503, times: 1, state: 'global' }),
    });
    expect(planned.status).toBe(201);
    for (const operation of START_UP) {
      const order: Phone[] = operation === 'meta/setting' ? [PHONE_B, PHONE_A] : [PHONE_A, PHONE_B];
      for (const phone of order)
        await fetch(
          `${server.url}${phonePath(phone, operation, phone === PHONE_A && operation === 'localplay/diversion')}`,
        );
      // Phone A's player page opens during its start-up: it sends a page_view record.
      if (operation === 'meta/cp') {
        const sent = await fetch(`${server.url}/__mockvideo/analytics`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(analyticsRecord(PHONE_A)),
        });
        expect(sent.status).toBe(200);
      }
    }
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    await server?.stop();
  });

  it('prints the dashboard URL on its start lines', () => {
    expect(server.stdout()).toContain(`  dashboard: ${server.url}/__mockvideo/\n`);
  });

  it('lists both devices with model, Android version, counts and findings', async () => {
    const a = page.locator(`#device-list li[data-device="${PHONE_A.sdevid}"]`);
    const b = page.locator(`#device-list li[data-device="${PHONE_B.sdevid}"]`);
    // The page reads the devices again once requests pause: wait for the last of them.
    await a.filter({ hasText: '6 requests' }).waitFor({ timeout: 5_000 });
    await b.filter({ hasText: '6 requests' }).waitFor({ timeout: 5_000 });
    expect(await a.textContent()).toContain('Redmi Note 12 Pro+');
    expect(await a.textContent()).toMatch(/6 requests.*[1-9]\d* findings?/);
    expect(await b.textContent()).toContain('Pixel 7');
    expect(await b.textContent()).toContain('34');
    expect(await b.textContent()).toContain('1 fault');
  });

  it('draws one lane per device, the faulty request marked, the analytics record in its device lane', async () => {
    await lane(PHONE_B).locator('.bar-row', { hasText: 'localplay/recomm' }).waitFor({ timeout: 5_000 });
    expect(await page.locator('#lanes .lane').count()).toBe(2);
    await lane(PHONE_A).locator('.bar-row.analytics').waitFor({ timeout: 5_000 });
    expect(await lane(PHONE_A).locator('.bar-row:not(.analytics)').count()).toBe(6);
    expect(await lane(PHONE_B).locator('.bar-row:not(.analytics)').count()).toBe(6);
    const faulty = lane(PHONE_B).locator('.bar-row.fault');
    expect(await faulty.count()).toBe(1);
    expect(await faulty.textContent()).toMatch(/meta\/setting\s*503/);
    expect(await faulty.locator('button').getAttribute('aria-label')).toContain('fault status');
    expect(await lane(PHONE_A).locator('.bar-row.fault').count()).toBe(0);
    expect(await lane(PHONE_A).locator('.bar-row.analytics').textContent()).toContain('page_view');
    expect(await lane(PHONE_B).locator('.bar-row.analytics').count()).toBe(0);
  });

  it("gives verify's verdict beside each start-up: the broken one fails, naming the rule", async () => {
    const a = lane(PHONE_A).locator('.burst');
    const b = lane(PHONE_B).locator('.burst');
    expect(await a.count()).toBe(1);
    expect(await b.count()).toBe(1);
    expect(await a.locator('.verdict').getAttribute('class')).toContain('bad');
    expect(await a.locator('.burst-rules').textContent()).toContain('diversion-carries-is_from_gallery');
    expect(await b.locator('.verdict').textContent()).toBe('✓ verify holds');
  });

  it('lists the analytics record with its finding and its device', async () => {
    const rows = page.locator('#analytics-body tr');
    await rows.first().waitFor({ timeout: 5_000 });
    expect(await rows.count()).toBe(1);
    expect(await rows.textContent()).toContain('package_from');
  });

  it('filters everything by the device chosen, and names it', async () => {
    await page
      .locator(`#device-list li[data-device="${PHONE_A.sdevid}"]`)
      .getByRole('button', { name: 'Show only this device' })
      .click();
    await page.waitForFunction(() => document.querySelectorAll('#lanes .lane').length === 1, undefined, {
      timeout: 5_000,
    });
    expect(await lane(PHONE_A).count()).toBe(1);
    expect(await page.locator('#requests-body tr').count()).toBe(6);
    expect(
      await page
        .locator('#requests-body tr td[title]')
        .evaluateAll((cells) => [...new Set(cells.map((c) => c.getAttribute('title')))]),
    ).toEqual([PHONE_A.sdevid]);
    // Verify too: phone A's requests alone, one start-up from one device.
    await page.locator('#verify-scope', { hasText: 'the chosen device' }).waitFor({ timeout: 5_000 });
    await page.locator('#verify-report li', { hasText: '1 start-up from 1 device(s)' }).waitFor({ timeout: 5_000 });

    await page.getByLabel(/^Name for /).fill('QA Redmi');
    await page.getByRole('button', { name: 'Save name' }).click();
    await lane(PHONE_A).locator('h3', { hasText: 'QA Redmi' }).waitFor({ timeout: 5_000 });
    const { devices } = (await (await fetch(`${server.url}/__mockvideo/devices`)).json()) as {
      devices: Array<{ sdevid: string; name: string | null }>;
    };
    expect(devices.find((d) => d.sdevid === PHONE_A.sdevid)?.name).toBe('QA Redmi');
  });

  it("downloads the HAR of the chosen device: only that device's requests", async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'HAR of this device' }).click(),
    ]);
    const har = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      log: { entries: Array<{ request: { url: string } }> };
    };
    expect(har.log.entries).toHaveLength(6);
    for (const entry of har.log.entries)
      expect(new URL(entry.request.url).searchParams.get('_sdevid')).toBe(PHONE_A.sdevid);
    // The start-up's own HAR link names exactly its requests.
    expect(await lane(PHONE_A).locator('.burst a', { hasText: 'HAR' }).getAttribute('href')).toMatch(
      /^\/__mockvideo\/requests\.har\?ids=(\d+%2C){5}\d+$/,
    );
  });

  it('shows the body as sent, \\u0026 visible, with a toggle to the pretty form, and the request as curl', async () => {
    await lane(PHONE_A).locator('.bar-row', { hasText: 'localplay/recomm' }).getByRole('button').click();
    const body = page.locator('#detail pre.body');
    await body.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-heading');
    expect(await body.textContent()).toContain('\\u0026');
    await page.getByRole('button', { name: 'Pretty-print' }).click();
    expect(await body.textContent()).not.toContain('\\u0026');
    expect(await body.textContent()).toContain('\n  "msg"');
    await page.getByRole('button', { name: 'Pretty-print' }).click();
    expect(await body.textContent()).toContain('\\u0026');
    const curl = (await page.locator('#detail pre.curl').textContent())!;
    expect(curl.startsWith(`curl '${server.url}/api/g1/localplay/recomm?ref=&_sdevid=${PHONE_A.sdevid}&`)).toBe(true);
    expect(curl).not.toContain("'host:");
  });

  it('is keyboard reachable: Tab reaches the device buttons and the timeline bars', async () => {
    await page.keyboard.press('Escape');
    const seen = new Set<string>();
    await page.locator('body').focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      seen.add(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? ''));
    }
    expect([...seen]).toEqual(expect.arrayContaining(['bar-button']));
  });

  it('reads well at 1,400 and 360 px (screenshots in test-output/, or docs/ with MOCKVIDEO_SCREENSHOTS=docs)', async () => {
    await page.getByRole('button', { name: 'Show every device' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#lanes .lane').length === 2, undefined, {
      timeout: 5_000,
    });
    mkdirSync(SHOTS, { recursive: true });
    await page.locator('#detail').waitFor({ state: 'hidden' });
    await page.locator('#verify-report li', { hasText: '2 start-ups from 2 device(s)' }).waitFor({ timeout: 5_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-1400.png', SHOTS)), fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The top of the page, as QA sees it on a phone: the devices and the lanes.
    const lanesEnd = await page
      .locator('#lanes')
      .evaluate((lanes) => lanes.getBoundingClientRect().bottom + window.scrollY);
    await page.screenshot({
      path: fileURLToPath(new URL('dashboard-360.png', SHOTS)),
      fullPage: true,
      clip: { x: 0, y: 0, width: 360, height: Math.ceil(lanesEnd) + 16 },
    });
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('raised no script error, no CSP violation, and sent nothing off the server', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe.skipIf(skip)(
  'replay: the recording and match kind of each answer, no scenario picker without a fallback',
  () => {
    let upstream: CliProcess;
    let replay: CliProcess;
    let recordOutput: string;
    let page: Page;

    beforeAll(async () => {
      upstream = await startCli(['serve', '--port', '0']);
      // Every operation but ad_config is recorded: its request in replay is a miss.
      const session = await recordSession(
        upstream.url,
        START_UP.filter((op) => op !== 'ad_config').map((op) => phonePath(PHONE_A, op)),
      );
      recordOutput = session.stdout;
      replay = await startCli(['replay', session.dir, '--port', '0']);
      for (const op of START_UP) await fetch(`${replay.url}${phonePath(PHONE_A, op)}`);
      page = await newDashboardPage(replay.url);
      await page.locator('#requests-body tr').nth(5).waitFor({ timeout: 5_000 });
    }, 90_000);

    afterAll(async () => {
      await page?.close();
      await replay?.stop();
      await upstream?.stop();
    });

    it('prints the dashboard URL when recording and replaying', () => {
      expect(recordOutput).toMatch(/ {2}dashboard: http:\/\/127\.0\.0\.1:\d+\/__mockvideo\/\n/);
      expect(replay.stdout()).toContain(`  dashboard: ${replay.url}/__mockvideo/\n`);
    });

    it('says what answers in the header, never "scenario default", and hides the scenario picker', async () => {
      const header = (await page.locator('header.top').innerText()).replace(/\s+/g, ' ');
      expect(header).toContain('mode replay');
      expect(header).toMatch(/recordings \S+/);
      expect(header).not.toContain('scenario');
      expect(await page.locator('#scenario-section').isVisible()).toBe(false);
    });

    it('names the recording file and the match kind of each answer; the miss says miss', async () => {
      const heads = await page.locator('#requests-head th').allTextContents();
      expect(heads).toEqual(expect.arrayContaining(['Match', 'Recording']));
      expect(heads).not.toContain('Scenario');
      const row = (operation: string) =>
        page.locator('#requests-body tr').filter({
          has: page
            .getByRole('button', { name: `Show request`, exact: false })
            .and(page.locator(`[aria-label$=", ${operation}"]`)),
        });
      for (const op of START_UP.filter((o) => o !== 'ad_config')) {
        const cells = await row(op).locator('td').allTextContents();
        expect(cells).toContain('exact');
        expect(cells.some((c) => new RegExp(`^${op.replace('/', '-')}/[0-9a-f]+-\\d+\\.json$`).test(c))).toBe(true);
      }
      const miss = await row('ad_config').locator('td').allTextContents();
      expect(miss).toContain('miss');
      expect(miss).toContain('404');
      // The timeline flags the miss too.
      await page
        .locator('#lanes .bar-row', { hasText: 'ad_config' })
        .locator('.match.miss')
        .waitFor({ timeout: 5_000 });
      await page.screenshot({
        path: fileURLToPath(new URL('../../test-output/dashboard-replay.png', import.meta.url)),
        fullPage: true,
      });
    });

    it('raised no script error and sent nothing off the server', () => {
      expect(pageErrors).toEqual([]);
    });
  },
);
