import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli } from '../support/cli.js';

describe('mockvideo new-scenario', () => {
  it('writes a scenario that extends another, validates, and serves', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mockvideo-new-'));
    const created = await runCli(['new-scenario', 'my-gallery', '--from', 'gallery'], { cwd });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('mockvideo serve --scenarios-dir scenarios --scenario my-gallery');
    const file = JSON.parse(readFileSync(join(cwd, 'scenarios/my-gallery.json'), 'utf8'));
    expect(file).toMatchObject({ extends: 'gallery', $schema: expect.stringMatching(/scenario\.schema\.json$/), operations: { ad_config: { data: expect.any(Object) } } });
    expect((await runCli(['validate', 'scenarios'], { cwd })).code).toBe(0);
    const server = await startCli(['serve', '--port', '0', '--scenarios-dir', 'scenarios', '--scenario', 'my-gallery', '--no-watch'], { cwd });
    try {
      const response = await fetch(`${server.url}${clientPath('localplay/diversion', { is_from_gallery: 'false' })}`);
      expect(response.headers.get('x-mockvideo-scenario')).toBe('my-gallery');
      expect((await response.json()).data.end).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad name and an existing file, with exit code 2', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mockvideo-new-'));
    expect((await runCli(['new-scenario', 'Bad Name'], { cwd })).stderr).toMatch(/not a valid scenario name/);
    await runCli(['new-scenario', 'twice'], { cwd });
    const again = await runCli(['new-scenario', 'twice'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists already\. Pick another name or pass --force/);
  });
});
