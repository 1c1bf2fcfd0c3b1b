import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(file).toMatchObject({
      extends: 'gallery',
      $schema: expect.stringMatching(/scenario\.schema\.json$/),
      operations: {},
    });
    expect((await runCli(['validate', 'scenarios'], { cwd })).code).toBe(0);
    const server = await startCli(
      ['serve', '--port', '0', '--scenarios-dir', 'scenarios', '--scenario', 'my-gallery', '--no-watch'],
      { cwd },
    );
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

  // Issue 20, item 5: `new-scenario x --scenarios-dir d` exited 2 "Unknown arguments" (only --dir
  // worked), and a broken other file in the folder stopped it, named instead of what it writes.
  it('takes --scenarios-dir like serve, replay and validate, and --dir as an alias', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mockvideo-new-'));
    const viaFlag = await runCli(['new-scenario', 'one', '--scenarios-dir', 'mine'], { cwd });
    expect(viaFlag.code).toBe(0);
    expect(existsSync(join(cwd, 'mine/one.json'))).toBe(true);
    expect((await runCli(['new-scenario', 'two', '--dir', 'mine'], { cwd })).code).toBe(0);
    expect(existsSync(join(cwd, 'mine/two.json'))).toBe(true);
  });

  it('checks only what it writes and the scenarios it extends, not other files of the folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mockvideo-new-'));
    mkdirSync(join(cwd, 'scenarios'));
    writeFileSync(join(cwd, 'scenarios/broken.json'), '{ "extends": "default", "operations": { ');
    writeFileSync(
      join(cwd, 'scenarios/base.json'),
      JSON.stringify({ extends: 'gallery', operations: { ad_config: { data: { slot: 'pre-roll' } } } }),
    );
    const created = await runCli(['new-scenario', 'child', '--from', 'base'], { cwd });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'scenarios/child.json'), 'utf8'))).toMatchObject({
      extends: 'base',
      operations: {},
    });
    const fromBroken = await runCli(['new-scenario', 'other', '--from', 'broken'], { cwd });
    expect(fromBroken.code).toBe(2);
    expect(fromBroken.stderr).toMatch(/scenarios\/broken\.json: invalid JSON/);
    expect(existsSync(join(cwd, 'scenarios/other.json'))).toBe(false);
  });
});
