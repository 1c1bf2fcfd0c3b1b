// The HAR files mockvideo writes, as DevTools and Charles open them: the journal's
// (GET /__mockvideo/requests.har) and `mockvideo export --har`'s. Valid HAR 1.2 by har-validator,
// the real package version as creator, served as JSON, one page every entry refers to, each entry
// a fetch with the server address that answered.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Har } from 'har-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';
import { harProblems } from '../support/har-validator.js';
import { recordSession, tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What every mockvideo HAR holds besides its entries' own fields. */
function expectMockvideoHar(har: Har, entries: number): void {
  expect(har.log.creator).toEqual({ name: 'mockvideo', version: VERSION });
  expect(har.log.pages).toHaveLength(1);
  expect(har.log.entries).toHaveLength(entries);
  for (const entry of har.log.entries) {
    expect(entry.pageref).toBe(har.log.pages![0]!.id);
    expect(entry._resourceType).toBe('fetch');
    expect(entry.serverIPAddress).toBe('127.0.0.1');
  }
}

describe('the journal HAR (GET /__mockvideo/requests.har)', () => {
  let server: CliProcess;
  beforeAll(async () => {
    server = await startCli(['serve', '--port', '0']);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is valid HAR 1.2 served as application/json, with the real version, a page, fetch entries and the server address', async () => {
    await fetch(`${server.url}${clientPath('meta/cp')}`);
    await fetch(`${server.url}${clientPath('ad_config')}`);
    const response = await fetch(`${server.url}/__mockvideo/requests.har`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="?mockvideo-requests\.har"?$/);
    const har = (await response.json()) as Har;
    expect(await harProblems(har)).toEqual([]);
    expectMockvideoHar(har, 2);
    expect(har.log.pages![0]!.startedDateTime).toBe(har.log.entries[0]!.startedDateTime);
  });
});

describe('mockvideo export --har', () => {
  const upstream = useUpstream();

  it('writes valid HAR 1.2 with the real version, a page, fetch entries and the server address', async () => {
    const { dir } = await recordSession(upstream.url, [clientPath('meta/cp'), clientPath('localplay/recomm')]);
    const file = join(tempDir(), 'session.har');
    const exported = await runCli(['export', dir, '--har', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    expect(await harProblems(har)).toEqual([]);
    expectMockvideoHar(har, 2);
  });
});
