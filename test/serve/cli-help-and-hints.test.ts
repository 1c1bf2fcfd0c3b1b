import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

// Issue 20, items 6, 10 and 12, with the real CLI.
const cwd = mkdtempSync(join(tmpdir(), 'mockvideo-cli-'));

describe('completion --help', () => {
  it('prints help with an example instead of the completion script (item 6)', async () => {
    const { code, stdout } = await runCli(['completion', '--help'], { cwd });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^mockvideo completion\n/);
    expect(stdout).toContain('mockvideo completion >> ~/.bashrc');
    expect(stdout).not.toContain('###-begin-mockvideo-completions-###');
  });

  it('still prints the script without --help', async () => {
    expect((await runCli(['completion'], { cwd })).stdout).toContain('###-begin-mockvideo-completions-###');
  });
});

describe('config labels each source exactly (item 10)', () => {
  const sources = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const { stdout } = await runCli(['config', '--json', ...args], { cwd, env });
    return Object.fromEntries(
      (JSON.parse(stdout) as { settings: Array<{ name: string; source: string }> }).settings.map((s) => [
        s.name,
        s.source,
      ]),
    );
  };

  it('labels log, quiet and verbose "default" when they were not passed', async () => {
    expect(await sources([])).toMatchObject({ log: 'default', quiet: 'default', verbose: 'default', port: 'default' });
  });

  it('labels flags, short aliases and environment variables as what they are', async () => {
    expect(
      await sources(['--port', '9', '-s', 'gallery', '--no-watch', '--verbose'], { MOCKVIDEO_QUIET: '1' }),
    ).toMatchObject({
      port: 'flag',
      scenario: 'flag',
      watch: 'flag',
      verbose: 'flag',
      quiet: 'env',
      log: 'default',
    });
    expect(await sources(['--for', 'new-scenario', '--dir', 'x'])).toMatchObject({ 'scenarios-dir': 'flag' });
  });
});

describe('did you mean (item 12)', () => {
  it('suggests the scenario a typo is close to', async () => {
    const { code, stderr } = await runCli(['serve', '--scenario', 'galery', '--port', '0', '--no-watch'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown scenario "galery"\. .* Did you mean "gallery"\?/);
  });

  it('suggests the flag a typo is close to', async () => {
    const { code, stderr } = await runCli(['serve', '--prot', '8080'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown argument: prot. Did you mean --port?');
  });

  it('suggests the command a typo is close to', async () => {
    const { code, stderr } = await runCli(['serv'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain('Did you mean serve?');
  });
});
