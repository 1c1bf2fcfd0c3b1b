import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-scenarios-'));
  // A stub with its own fault, and a stub that sets a cookie.
  writeFileSync(
    join(dir, 'broken-settings.json'),
    JSON.stringify({
      extends: 'default',
      operations: { 'meta/setting': { fault: { kind: 'envelope', result: 0, msg: 'busy' } } },
    }),
  );
  writeFileSync(
    join(dir, 'cookie.json'),
    JSON.stringify({
      extends: 'default',
      operations: { ad_config: { data: {}, headers: { 'set-cookie': 'session=for-client-a; Path=/' } } },
    }),
  );
  server = await startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--journal-size', '3']);
});
afterAll(async () => {
  await server.stop();
});

describe('scenario files', () => {
  it('a stub-level fault in a user scenario answers as declared', async () => {
    const response = await fetch(`${server.url}/scenarios/broken-settings${clientPath('meta/setting')}`);
    expect(await response.json()).toEqual({ data: {}, msg: 'busy', result: 0 });
  });
});

describe('isolation between clients', () => {
  it("a Set-Cookie answered to one client never reaches another client's request", async () => {
    const a = await fetch(`${server.url}/scenarios/cookie${clientPath('ad_config')}`);
    expect(a.headers.get('set-cookie')).toContain('session=for-client-a');
    await fetch(`${server.url}/__mockvideo/requests`, { method: 'DELETE' });
    await fetch(`${server.url}${clientPath('meta/cp')}`);
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    const detail = await (await fetch(`${server.url}/__mockvideo/requests/${requests[0].id}`)).json();
    expect(detail.request.headers.cookie).toBeUndefined();
    expect(JSON.stringify(detail)).not.toContain('for-client-a');
  });
});

describe('--journal-size', () => {
  it('keeps only the newest N requests (a bounded ring)', async () => {
    await fetch(`${server.url}/__mockvideo/requests`, { method: 'DELETE' });
    for (const op of ['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin'] as const)
      await fetch(`${server.url}${clientPath(op)}`);
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    expect(requests.map((r: { operation: string }) => r.operation)).toEqual(['meta/cp', 'meta/setting', 'meta/plugin']);
  });
});
