import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'fast-string-width';
import { describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli } from '../support/cli.js';

/** A project folder with a config file at its top and a sub-folder to run from (the file is found walking up). */
function project(settings: unknown, name = 'mockvideo.config.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-config-'));
  writeFileSync(join(dir, name), typeof settings === 'string' ? settings : JSON.stringify(settings));
  mkdirSync(join(dir, 'app'));
  return join(dir, 'app');
}

async function servedScenario(cwd: string, flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string | null> {
  const server = await startCli(['serve', '--port', '0', '--no-watch', ...flags], { cwd, env });
  try {
    return (await fetch(`${server.url}${clientPath('ad_config')}`)).headers.get('x-mockvideo-scenario');
  } finally {
    await server.stop();
  }
}

describe('settings: flag > environment > config file > default', () => {
  const cwd = project({ scenario: 'gallery', journalSize: 10 });

  it('the config file (found by walking up) beats the default', async () => {
    expect(await servedScenario(cwd)).toBe('gallery');
  });

  it('an environment variable beats the file', async () => {
    expect(await servedScenario(cwd, [], { MOCKVIDEO_SCENARIO: 'empty-ad-config' })).toBe('empty-ad-config');
  });

  it('a flag beats the environment', async () => {
    expect(await servedScenario(cwd, ['--scenario', 'non-gallery'], { MOCKVIDEO_SCENARIO: 'empty-ad-config' })).toBe(
      'non-gallery',
    );
  });

  it('--config names another file; .mjs files work too', async () => {
    const other = project('export default { scenario: "no-recommendations" };', 'other.config.mjs');
    expect(await servedScenario(cwd, ['--config', join(other, '..', 'other.config.mjs')])).toBe('no-recommendations');
  });

  it('--config before the command still applies the file to that command', async () => {
    const other = project({ scenario: 'no-recommendations' }, 'first.config.json');
    const server = await startCli(
      ['--config', join(other, '..', 'first.config.json'), 'serve', '--port', '0', '--no-watch'],
      { cwd },
    );
    try {
      expect((await fetch(`${server.url}${clientPath('ad_config')}`)).headers.get('x-mockvideo-scenario')).toBe(
        'no-recommendations',
      );
    } finally {
      await server.stop();
    }
  });

  it('"mockvideo config" shows each value and where it came from', async () => {
    const { code, stdout } = await runCli(['config', '--json', '--host', '0.0.0.0'], {
      cwd,
      env: { MOCKVIDEO_PORT: '9123' },
    });
    expect(code).toBe(0);
    const { file, settings } = JSON.parse(stdout);
    expect(file).toMatch(/mockvideo\.config\.json$/);
    const of = (name: string) => settings.find((s: { name: string }) => s.name === name);
    expect(of('host')).toEqual({ name: 'host', value: '0.0.0.0', source: 'flag' });
    expect(of('port')).toEqual({ name: 'port', value: '9123', source: 'env' });
    expect(of('scenario')).toEqual({ name: 'scenario', value: 'gallery', source: 'file' });
    expect(of('strict-requests')).toEqual({ name: 'strict-requests', value: false, source: 'default' });
  });

  it('"mockvideo config" lines up where each value came from, with CJK and emoji values (i18n-stress titles)', async () => {
    const { code, stdout } = await runCli(['config', '--host', 'キッズゾーン 🧸'], { cwd });
    expect(code).toBe(0);
    const rows = stdout.split('\n').filter((line) => / \((flag|env|file|default)\)$/.test(line));
    expect(rows.find((line) => line.startsWith('host '))).toContain('"キッズゾーン 🧸"');
    // The source column starts at one display column (terminal cells: a CJK character or an emoji takes two).
    expect(new Set(rows.map((line) => stringWidth(line.slice(0, line.lastIndexOf(' ('))))).size).toBe(1);
  });

  it('an environment variable of another command does not upset this one', async () => {
    const { code } = await runCli(['scenarios'], { cwd, env: { MOCKVIDEO_PORT: '9123' } });
    expect(code).toBe(0);
  });
});

describe('a bad config file', () => {
  it.each([
    [
      { colour: 'blue' },
      /mockvideo\.config\.json: unknown setting "colour"\. Settings are the flags of the commands: /,
    ],
    [{ watch: 'yes' }, /setting "watch" must be true or false, got "yes"/],
    [{ fault: 'reset' }, /setting "fault" must be a list of strings/],
    ['{ not json', /Cannot read the config file .*mockvideo\.config\.json: /],
  ])('%j stops the command at start with exit 2, naming the file and the setting', async (settings, message) => {
    const { code, stderr } = await runCli(['scenarios'], { cwd: project(settings) });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});

describe('settings that send the real token somewhere are taken from the command line only', () => {
  it.each([
    [
      { upstream: 'http://127.0.0.1:9' },
      'upstream',
      /it decides where the real token and identifiers are sent\)\. Remove it there and pass --upstream URL on the command line\./,
    ],
    [
      { 'insecure-upstream': true },
      'insecure-upstream',
      /it stops checking who receives the real token\)\. Remove it there and pass --insecure-upstream on the command line\./,
    ],
  ])(
    'a config file with %j stops drift and record at start (exit 2), naming the file and the setting, before any request',
    async (settings, name, why) => {
      const cwd = project(settings);
      for (const argv of [
        ['drift', 'recordings'],
        ['record', '--out', 'recordings', '--upstream', 'http://127.0.0.1:9'],
      ]) {
        const { code, stderr } = await runCli(argv, { cwd });
        expect(code).toBe(2);
        expect(stderr).toMatch(
          new RegExp(
            `^\\[mockvideo\\] .*mockvideo\\.config\\.json: "${name}" is taken from the command line only \\(`,
            'm',
          ),
        );
        expect(stderr).toMatch(why);
      }
    },
  );

  it('so does MOCKVIDEO_UPSTREAM', async () => {
    const { code, stderr } = await runCli(['drift', 'recordings'], {
      env: { MOCKVIDEO_UPSTREAM: 'http://127.0.0.1:9' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^\[mockvideo\] The environment variable MOCKVIDEO_UPSTREAM: "upstream" is taken from the command line only/m,
    );
  });

  it('"insecure-upstream": false (the safe side) is allowed in a file', async () => {
    const { code } = await runCli(['scenarios'], {
      cwd: project({ 'insecure-upstream': false, 'keep-identifiers': false }),
    });
    expect(code).toBe(0);
  });
});

// Issue 39, M2: `mockvideo config` printed --secret-value (a raw service token) and --admin-token in clear.
describe('"mockvideo config" shows secret values redacted, with their source', () => {
  const SECRET = 'made-up-service-token-0123456789';
  it.each([
    ['serve', 'admin-token'],
    ['record', 'secret-value'],
    ['import', 'secret-value'],
  ])(
    'config --for %s: %s, given as a flag or in the environment, is in neither the table nor --json',
    async (command, name) => {
      for (const [flags, env, source] of [
        [[`--${name}`, SECRET], {}, 'flag'],
        [[], { [`MOCKVIDEO_${name.toUpperCase().replace('-', '_')}`]: SECRET }, 'env'],
      ] as const) {
        for (const json of [false, true]) {
          const { code, stdout } = await runCli(['config', '--for', command, ...(json ? ['--json'] : []), ...flags], {
            env,
          });
          expect(code).toBe(0);
          expect(stdout).not.toContain(SECRET);
          if (json) {
            const setting = JSON.parse(stdout).settings.find((s: { name: string }) => s.name === name);
            expect(setting.source).toBe(source);
            expect([setting.value].flat()).toEqual(['<REDACTED>']);
          } else expect(stdout).toMatch(new RegExp(`^${name} +\\[?"<REDACTED>"\\]? +\\(${source}\\)$`, 'm'));
        }
      }
    },
  );
});

// Issue 39, M3: a config file found from the working folder upward could set host 0.0.0.0, admin-token and allow-host.
describe('settings that open the server to other hosts come from the command line or the environment only', () => {
  it.each([
    [{ host: '0.0.0.0' }, 'host', ['serve', '--port', '0']],
    [{ 'admin-token': 'made-up-admin-token' }, 'admin-token', ['serve', '--port', '0']],
    [{ adminToken: 'made-up-admin-token' }, 'admin-token', ['serve', '--port', '0']],
    [{ 'allow-host': ['rebind.example'] }, 'allow-host', ['record', '--out', 'r', '--upstream', 'http://127.0.0.1:9']],
  ])(
    'a config file with %j stops the command at start (exit 2) with one line naming the file',
    async (settings, name, argv) => {
      const { code, stderr } = await runCli(argv, { cwd: project(settings) });
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr.trim()).toMatch(
        new RegExp(
          `^\\[mockvideo\\] .*mockvideo\\.config\\.json: "${name}" is taken from the command line or the environment only \\(.*\\)\\. Remove it there and pass --${name} .* on the command line or as MOCKVIDEO_${name.toUpperCase().replace('-', '_')}\\.$`,
        ),
      );
    },
  );

  it('the environment still may: MOCKVIDEO_HOST is shown as the source of host', async () => {
    const { code, stdout } = await runCli(['config', '--json'], { env: { MOCKVIDEO_HOST: '0.0.0.0' } });
    expect(code).toBe(0);
    const { settings } = JSON.parse(stdout);
    expect(settings.find((s: { name: string }) => s.name === 'host')).toEqual({
      name: 'host',
      value: '0.0.0.0',
      source: 'env',
    });
  });
});
