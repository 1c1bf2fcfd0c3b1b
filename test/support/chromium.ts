// Headless Debian Chromium for browser tests, driven by playwright-core (never a downloaded browser).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The Chromium binary: MOCKVIDEO_CHROMIUM, default Debian's /usr/bin/chromium. */
export const CHROMIUM = process.env.MOCKVIDEO_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a quiet, offline-friendly headless run in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why browser tests cannot run here (no Chromium at {@link CHROMIUM}), or `undefined` when they can. */
export const chromiumMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium) or point MOCKVIDEO_CHROMIUM at a Chromium binary.`;

/**
 * Whether a browser test suite should be skipped: Chromium is missing and CI is unset. Prints the
 * reason, prefixed with `label`, when it skips. In CI a missing Chromium is not a skip: the suite
 * runs and {@link launchChromium} fails, because CI must run it (.ci/run installs Debian's chromium).
 */
export function skipWithoutChromium(label: string): boolean {
  const skip = chromiumMissing !== undefined && !process.env.CI;
  if (skip) console.warn(`[${label}] skipped: ${chromiumMissing}`);
  return skip;
}

/**
 * Launches headless Chromium.
 * @throws Error naming the missing binary (in CI), or playwright's launch error.
 */
export async function launchChromium(label: string): Promise<Browser> {
  if (chromiumMissing) throw new Error(`[${label}] cannot run in CI: ${chromiumMissing}`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** Opens the dashboard of the mockvideo at `url` in `page` and resolves once its event stream is live. */
export async function openDashboard(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/__mockvideo/`);
  await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
}
