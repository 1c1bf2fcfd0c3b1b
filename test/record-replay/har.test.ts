// HAR 1.2: export → import round trip, and a HAR recorded by a real browser (Playwright's recordHar
// in headless Debian Chromium, never a downloaded browser) imported and replayed.
// Without Chromium at MOCKVIDEO_CHROMIUM (default /usr/bin/chromium) the browser test is skipped and
// says why, unless CI is set: then it fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import { runCli, startCli } from '../support/cli.js';
import { CLIENT_COMMON_QUERY, clientPath } from '../support/client.js';
import { encodedForms, getBytes, recordSession, recordingFiles, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { useUpstream } from '../support/upstream.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';

const upstream = useUpstream();

const SECRETS = CLIENT_COMMON_QUERY.filter(([name]) =>
  ['_st', '_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5'].includes(name),
).map(([, v]) => v);

describe('export → import', () => {
  it('writes a valid HAR 1.2 that imports back into the same recording files, byte for byte', async () => {
    const paths = [
      ...OPERATION_NAMES.map((op) => clientPath(op)),
      clientPath('localplay/diversion', { is_from_gallery: 'false' }),
      clientPath('meta/setting'),
    ];
    const { dir } = await recordSession(upstream.url, paths);
    const harFile = join(tempDir(), 'session.har');
    const exported = await runCli(['export', dir, '--har', harFile]);
    expect(exported.code).toBe(0);
    const har = JSON.parse(readFileSync(harFile, 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('mockvideo');
    expect(har.log.entries).toHaveLength(paths.length);
    for (const entry of har.log.entries) {
      expect(entry).toMatchObject({
        request: { method: 'GET', httpVersion: 'HTTP/1.1', headersSize: -1 },
        response: { status: 200, redirectURL: '' },
        cache: {},
        timings: { send: 0 },
      });
      // The recorded latency: the headers after `wait`, the last byte `receive` later.
      expect(entry.timings.wait).toBeGreaterThan(0);
      expect(entry.time).toBeCloseTo(entry.timings.wait + entry.timings.receive, 5);
      expect(entry.request.url).toMatch(/^http:\/\/localhost:8787\/api\/g1\//);
      expect(entry.response.content.size).toBe(Buffer.byteLength(entry.response.content.text));
      expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
    }
    const again = tempDir();
    const imported = await runCli(['import', harFile, '--out', again]);
    expect(imported.code).toBe(0);
    expect(recordingFiles(again)).toEqual(recordingFiles(dir));
  });

  it('a HAR with a null entry, one of invalid base64 and one with a broken header: one line each naming the entry, the valid ones imported, no stack trace; a header named constructor kept', async () => {
    const entry = (
      body: { text: string; encoding?: string },
      headers: Array<{ name: string; value: string }> = [],
    ) => ({
      startedDateTime: '2026-11-23T00:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url: `http://api.example.com${clientPath('meta/cp')}`,
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/json' }, ...headers],
        cookies: [],
        content: { size: body.text.length, mimeType: 'application/json', ...body },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          entry({ text: '{"data":[],"msg":"OK","result":1}' }, [
            { name: 'constructor', value: 'y' },
            { name: '__proto__', value: 'z' },
          ]),
          null,
          entry({ text: 'not base64 at all!', encoding: 'base64' }),
          entry({ text: '{}' }, [{ name: 'x-broken', value: 7 } as unknown as { name: string; value: string }]),
        ],
      },
    };
    const file = join(tempDir(), 'odd.har');
    writeFileSync(file, JSON.stringify(har));
    const dir = tempDir();
    const { code, stdout, stderr } = await runCli(['import', file, '--out', dir]);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^skipped log\.entries\[1\]: not a HAR entry \(null\)$/m);
    expect(stdout).toMatch(
      /^skipped http:\/\/api\.example\.com\/api\/g1\/meta\/cp: response\.content\.text says base64 but is not valid base64$/m,
    );
    expect(stdout).toMatch(
      /^skipped http:\/\/api\.example\.com\/api\/g1\/meta\/cp: a header is not \{"name": "…", "value": "…"\}: \{"name":"x-broken","value":7\}$/m,
    );
    expect(stdout).toMatch(/^Imported 1 recording into .*, skipped 3$/m);
    const [recording] = recordingFiles(dir);
    expect(JSON.parse(recording!.text).response.headers).toMatchObject({ constructor: 'y', __proto__: 'z' });
    expect(recording!.text).toContain('"constructor": "y"');
    expect(recording!.text).toContain('"__proto__": "z"');
  });

  it('refuses a file that is not a HAR, saying how to get one', async () => {
    const notHar = join(tempDir(), 'x.har');
    (await import('node:fs')).writeFileSync(notHar, '{"entries": []}');
    const result = await runCli(['import', notHar, '--out', tempDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\[mockvideo\] .* is not a HAR file.*Save it again/);
  });
});

describe.skipIf(skipWithoutChromium('HAR browser test'))('a HAR recorded by a real browser', () => {
  it('imports (redacted, /api/g1 only) and replays byte-identical bodies', { timeout: 40_000 }, async () => {
    const harFile = join(tempDir(), 'browser.har');
    const calls: Array<[OperationName, { is_from_gallery?: 'true' | 'false' }]> = [
      ...OPERATION_NAMES.map((op): [OperationName, object] => [op, {}]),
      ['localplay/diversion', { is_from_gallery: 'false' }],
    ];
    const browser = await launchChromium('HAR browser test');
    const served = new Map<string, string>();
    try {
      const context = await browser.newContext({ recordHar: { path: harFile, content: 'embed' } });
      const page = await context.newPage();
      await page.goto(`${upstream.url}/not-an-operation`);
      for (const [op, extra] of calls) {
        const response = await page.goto(`${upstream.url}${clientPath(op, extra)}`);
        served.set(`${op}${extra.is_from_gallery ?? ''}`, (await response!.body()).toString('utf8'));
      }
      await context.close(); // writes the HAR
    } finally {
      await browser.close();
    }
    const dir = tempDir();
    const imported = await runCli(['import', harFile, '--out', dir]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/skipped .*\/not-an-operation: not one of the six/);
    const files = recordingFiles(dir);
    expect(files).toHaveLength(calls.length);
    for (const file of files) {
      for (const secret of [...SECRETS, 'made-up-session-cookie-value'])
        for (const form of encodedForms(secret)) expect(file.text, `${file.name} holds ${form}`).not.toContain(form);
    }
    // The browser sent the upstream's session cookie back: its value stored redacted, its name kept.
    expect(files.some((f) => JSON.parse(f.text).request.headers.cookie === 'session=<REDACTED>')).toBe(true);

    const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0']);
    try {
      for (const [op, extra] of calls) {
        const { status, headers, body } = await getBytes(`${replay.url}${clientPathWith(op, OTHER_SESSION, extra)}`);
        expect(status, op).toBe(200);
        expect(headers.get('x-mockvideo-match')).toBe('exact');
        expect(body.toString('utf8')).toBe(served.get(`${op}${extra.is_from_gallery ?? ''}`));
      }
      expect(served.get('localplay/recomm')).toContain('\\u0026');
    } finally {
      await replay.stop('SIGINT');
    }
  });
});
