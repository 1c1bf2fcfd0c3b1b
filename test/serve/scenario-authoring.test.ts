import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli } from '../support/cli.js';

// Issue 20, item 7, with the real CLI: one setting overridden in a stub, every problem in one run.
function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-authoring-'));
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(value));
  return dir;
}

describe('scenario authoring', () => {
  it('serves one overridden setting with the other fifteen from the parent', async () => {
    const dir = folder({
      'quick-exit.json': { extends: 'default', operations: { 'meta/setting': { data: { recommend_exit_times: 0 } } } },
    });
    const server = await startCli([
      'serve',
      '--port',
      '0',
      '--no-watch',
      '--scenarios-dir',
      dir,
      '--scenario',
      'quick-exit',
    ]);
    try {
      const own = (await (await fetch(`${server.url}${clientPath('meta/setting')}`)).json()).data;
      const parent = (await (await fetch(`${server.url}/scenarios/default${clientPath('meta/setting')}`)).json()).data;
      expect(own).toEqual({ ...parent, recommend_exit_times: 0 });
      expect(Object.keys(own)).toHaveLength(16);
    } finally {
      await server.stop();
    }
  });

  it('validate lists an extends typo together with the data errors', async () => {
    const dir = folder({
      'typo.json': { extends: 'defualt', operations: { 'meta/setting': { data: { language_switch: 'on' } } } },
    });
    const { code, stdout } = await runCli(['validate', dir]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/typo\.json at operations\["meta\/setting"\]\.data\.language_switch: .*expected number/);
    expect(stdout).toMatch(/typo\.json at extends: extends unknown scenario "defualt"/);
  });
});
