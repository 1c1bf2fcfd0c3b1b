import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';

/**
 * Issue 34, item 3: a body a recording, a stub or an upstream serves for an operation must not run
 * as a page of mockvideo's origin. The hostile body is valid JSON whose string holds a script that
 * reads the journal and plants a fault, as the QA lab found.
 */
const SCRIPT =
  "<script>document.title='ran';fetch('/__mockvideo/requests').then(r=>r.text()).then(t=>{document.title='read:'+t.length;return fetch('/__mockvideo/faults',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({operation:'meta/cp',kind:'status',status:418,times:5})})}).then(r=>{document.title='planted:'+r.status})</script>";
const HOSTILE = JSON.stringify({
  data: [{ id: 'x', name: SCRIPT, apk_url: '', app_icon: '', top_right_logo: '', cp_link: '' }],
  msg: 'OK',
  result: 1,
});
/** The same script in an ad_config answer (its fields are illustrative, so any object passes). */
const AD_CONFIG = JSON.stringify({ data: { enabled: false, note: SCRIPT }, msg: 'OK', result: 1 });

const skip = skipWithoutChromium('hostile-bodies');
let browser: Browser;
let upstream: Server;
let upstreamUrl: string;
beforeAll(async () => {
  if (skip) return;
  browser = await launchChromium('hostile-bodies');
  upstream = createServer((_req, res) =>
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "script-src 'unsafe-inline'",
      })
      .end(HOSTILE),
  );
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  upstream?.close();
  removeTempDirs();
});

/** Opens the operation's URL in Chromium as a person would (a shared link), then says what the page did and what mockvideo holds. */
async function openInChromium(
  server: CliProcess,
  operation: 'meta/cp' | 'ad_config' = 'meta/cp',
): Promise<{ title: string; faults: unknown[]; headers: Record<string, string> }> {
  const page = await browser.newPage();
  try {
    const response = await page.goto(`${server.url}${clientPath(operation)}`);
    await page.waitForTimeout(800);
    const faults = (await (await fetch(`${server.url}/__mockvideo/faults`)).json()).faults as unknown[];
    return { title: await page.title(), faults, headers: response!.headers() };
  } finally {
    await page.close();
  }
}

function expectHarmless(opened: { title: string; faults: unknown[]; headers: Record<string, string> }): void {
  expect(opened.title).not.toMatch(/ran|read|planted/);
  expect(opened.faults).toEqual([]);
  expect(opened.headers['x-content-type-options']).toBe('nosniff');
  expect(opened.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
}

describe.skipIf(skip)('a hostile body opened in Chromium neither reads the journal nor plants a fault', () => {
  let recorded: string;

  it("record: an upstream's text/html is passed on with nosniff and a sandboxing CSP (its own CSP replaced)", async () => {
    recorded = tempDir();
    const recorder = await startCli(['record', '--upstream', upstreamUrl, '--out', recorded, '--port', '0']);
    try {
      expectHarmless(await openInChromium(recorder));
    } finally {
      await recorder.stop('SIGINT');
    }
  }, 60_000);

  it('replay and validate refuse the text/html recording with one line naming file and cause', async () => {
    const files = recordingFiles(recorded);
    expect(files.length).toBeGreaterThan(0);
    const validate = await runCli(['validate', recorded]);
    expect(validate.code).not.toBe(0);
    expect(validate.stdout + validate.stderr).toMatch(
      /meta-cp\/.*content-type "text\/html; charset=utf-8" is not JSON/,
    );
    const replay = await runCli(['replay', recorded, '--port', '0'], { timeoutMs: 20_000 });
    expect(replay.code).not.toBe(0);
    expect(replay.stderr).toMatch(/content-type "text\/html; charset=utf-8" is not JSON/);
    expect(replay.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('replay: a hostile body without a content type is served as no page', async () => {
    for (const file of recordingFiles(recorded)) {
      const path = join(recorded, file.name);
      const recording = JSON.parse(readFileSync(path, 'utf8'));
      recording.response.headers = Object.fromEntries(
        Object.entries(recording.response.headers as Record<string, string>).filter(
          ([name]) => !/^content-(type|security-policy)$/i.test(name),
        ),
      );
      writeFileSync(path, JSON.stringify(recording));
    }
    const replay = await startCli(['replay', recorded, '--port', '0']);
    try {
      expectHarmless(await openInChromium(replay));
    } finally {
      await replay.stop();
    }
  }, 60_000);

  it('serve: a stub saying text/html is refused at start; a hostile JSON body is served as no page', async () => {
    const dir = tempDir('mockvideo-hostile-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'hostile.json'),
      JSON.stringify({
        description: 'hostile',
        extends: 'default',
        operations: { ad_config: { body: AD_CONFIG, headers: { 'Content-Type': 'text/html' } } },
      }),
    );
    await expect(startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--scenario', 'hostile'])).rejects.toThrow(
      /content-type "text\/html" is not JSON/,
    );
    writeFileSync(
      join(dir, 'hostile.json'),
      JSON.stringify({ description: 'hostile', extends: 'default', operations: { ad_config: { body: AD_CONFIG } } }),
    );
    const server = await startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--scenario', 'hostile']);
    try {
      expectHarmless(await openInChromium(server, 'ad_config'));
    } finally {
      await server.stop();
    }
  }, 60_000);
});
