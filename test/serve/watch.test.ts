import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mockvideo-watch-'));
const file = join(dir, 'live.json');
const write = (adConfig: unknown) =>
  writeFileSync(file, JSON.stringify({ extends: 'default', operations: { ad_config: { data: adConfig } } }));
let server: CliProcess;

beforeAll(async () => {
  write({ edition: 1 });
  server = await startCli(['serve', '--port', '0', '--scenarios-dir', dir, '--scenario', 'live']);
});
afterAll(async () => {
  await server.stop();
});

const adConfig = async () => (await (await fetch(`${server.url}${clientPath('ad_config')}`)).json()).data;

/** Polls until `check` holds (bounded: 5 s), returning how long it took in ms. */
async function eventually(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5000) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

describe('watch mode', () => {
  it('an edited scenario file changes the next answer without a restart', async () => {
    // The default's other ad config fields come along (object data is completed from the parent).
    expect(await adConfig()).toMatchObject({ edition: 1 });
    // Written again on every poll: the watcher may still be starting when the test begins.
    await eventually(async () => {
      write({ edition: 2 });
      await new Promise((r) => setTimeout(r, 200));
      return (await adConfig()).edition === 2;
    });
    expect(server.stdout()).toMatch(/scenarios reloaded from .*: version 2 is live/);
    expect((await (await fetch(`${server.url}/__mockvideo/health`)).json()).scenariosVersion).toBe(2);
  });

  it('a broken edit keeps the last good version serving and names the file, path and rule', async () => {
    writeFileSync(file, JSON.stringify({ extends: 'default', operations: { ad_config: { data: [] } } }));
    await eventually(async () => server.stderr().includes('Kept serving the last good scenarios'));
    expect(server.stderr()).toMatch(/live\.json at operations\.ad_config\.data: /);
    expect(await adConfig()).toMatchObject({ edition: 2 });
    write({ edition: 3 });
    await eventually(async () => (await adConfig()).edition === 3);
  });
});
