// The suspect of a start-up that broke verify's rules under `serve --fuzz`: the case of the last
// generated answer it got, in the verdicts (unit) and on the dashboard (headless Chromium over the
// real CLI, skipped without Chromium unless CI is set).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/index.js';
import { startUpVerdicts } from '../../src/verify/start-ups.js';
import { launchChromium, skipWithoutChromium, openDashboard } from '../support/chromium.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

const DEVICE = 'd'.repeat(64);
let id = 0;
const entry = (operation: string, seconds: number, fuzz?: string): JournalEntry => ({
  id: ++id,
  time: new Date(Date.UTC(2026, 10, 27, 2, 0, seconds)).toISOString(),
  operation,
  query: { _sdevid: [DEVICE], ...(operation === 'localplay/diversion' ? { is_from_gallery: ['true'] } : {}) },
  scenario: null,
  status: 200,
  durationMs: 3,
  findings: [],
  match: null,
  fault: null,
  ...(fuzz ? { fuzz } : {}),
});
const ALL = ['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'];

describe('the suspect of a start-up', () => {
  it('is the case of the last generated answer of a start-up that broke off', () => {
    const broken = ['ad_config', 'meta/cp', 'meta/setting'].map((op, i) => entry(op, i, `42:${op}:1`));
    const again = ALL.map((op, i) => entry(op, 20 + i, `42:${op}:2`));
    const [first, second] = startUpVerdicts([...broken, ...again]);
    expect(first).toMatchObject({ ok: false, suspect: '42:meta/setting:1' });
    expect(second!.ok).toBe(true);
    expect(second!.suspect).toBeUndefined();
  });

  it('is named only for generated answers', () => {
    const [verdict] = startUpVerdicts(['ad_config', 'meta/cp'].map((op, i) => entry(op, i)));
    expect(verdict!.ok).toBe(false);
    expect(verdict!.suspect).toBeUndefined();
  });
});

const skip = skipWithoutChromium('fuzz suspect dashboard test');

describe.skipIf(skip)('the dashboard under serve --fuzz', () => {
  let server: CliProcess;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0', '--no-watch', '--fuzz', '42']);
    browser = await launchChromium('fuzz suspect dashboard test');
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await openDashboard(page, server.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the case of each answer and names the suspect of a start-up that broke off', async () => {
    // The app starts playback, gets three answers and stops calling (it crashed on the third).
    for (const operation of ['ad_config', 'meta/cp', 'meta/setting'] as const)
      expect((await fetch(`${server.url}${clientPath(operation)}`)).status).toBe(200);
    await page.locator('#requests-body code.fuzz-case', { hasText: '42:meta/setting:1' }).waitFor({ timeout: 10_000 });
    // Live: while the answers come in, the suspect is the latest one so far.
    const suspect = page.locator('.burst.bad .suspect', { hasText: '42:meta/setting:1' });
    await suspect.waitFor({ timeout: 10_000 });
    expect(await suspect.textContent()).toContain('mockvideo serve --fuzz-case 42:meta/setting:1');
  });

  it('shows the edge classes in force and switches one off while serving', async () => {
    const box = page.locator('#fuzz-class-title-long');
    await box.waitFor({ timeout: 10_000 });
    expect(await page.locator('#fuzz-summary').textContent()).toContain('seed 42, 32-bit int');
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.locator('#fuzz-status', { hasText: 'title-long is off' }).waitFor({ timeout: 10_000 });
    const run = (await (await fetch(`${server.url}/__mockvideo/fuzz`)).json()) as {
      classes: Array<{ name: string; on: boolean }>;
    };
    expect(run.classes.find((c) => c.name === 'title-long')?.on).toBe(false);
    expect((await fetch(`${server.url}${clientPath('meta/cp')}`)).headers.get('x-mockvideo-fuzz')).toMatch(
      /:off=title-long$/,
    );
  });
});
