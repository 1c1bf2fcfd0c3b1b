import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

const FROZEN = '2026-01-31T12:00:00Z';
const FROZEN_SECONDS = Date.parse(FROZEN) / 1000;
const TWO_YEARS = 2 * 365 * 86_400;

/** A scenarios folder with `aged-plugins` (every plugin's `updated_at` two years before the clock) and `twice-global`. */
function scenariosDir(): string {
  const dir = tempDir('mockvideo-clock-');
  mkdirSync(dir, { recursive: true });
  const plugins = JSON.parse(readFileSync(new URL('../../scenarios/default.json', import.meta.url), 'utf8')).operations[
    'meta/plugin'
  ];
  for (const entry of plugins.data) entry.updated_at = '{now-2y}';
  writeFileSync(
    join(dir, 'aged-plugins.json'),
    JSON.stringify({
      description: 'plugins updated two years ago',
      extends: 'default',
      operations: { 'meta/plugin': plugins },
    }),
  );
  writeFileSync(
    join(dir, 'twice-global.json'),
    JSON.stringify({
      description: 'settings-twice for the whole server',
      extends: 'settings-twice',
      state: 'global',
      operations: {},
    }),
  );
  return dir;
}

let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});
afterAll(removeTempDirs);

const admin = (path: string, init?: RequestInit) => fetch(`${server!.url}/__mockvideo${path}`, init);
const updatedAt = async () =>
  (
    (await (await fetch(`${server!.url}${clientPath('meta/plugin')}`)).json()).data as Array<{ updated_at: number }>
  ).map((p) => p.updated_at);

describe('a clock: --clock, --clock-offset, PUT /__mockvideo/clock', () => {
  it('with --clock frozen, a relative updated_at is the same integer on every run and request, valid per the contract', async () => {
    const dir = scenariosDir();
    const runs: number[][] = [];
    for (let run = 0; run < 2; run++) {
      server = await startCli([
        'serve',
        '--port',
        '0',
        '--scenarios-dir',
        dir,
        '--scenario',
        'aged-plugins',
        '--clock',
        FROZEN,
      ]);
      runs.push(await updatedAt(), await updatedAt());
      const { data } = await (await fetch(`${server.url}${clientPath('meta/plugin')}`)).json();
      expect(OPERATIONS['meta/plugin'].dataSchema.safeParse(data).success).toBe(true);
      await server.stop();
      server = undefined;
    }
    expect(new Set(runs.flat())).toEqual(new Set([FROZEN_SECONDS - TWO_YEARS]));
  });

  it('gives the _ts finding to a request far from the clock, none to one near it; health shows the clock', async () => {
    server = await startCli(['serve', '--port', '0', '--clock', FROZEN]);
    // clientPath sends the real time as _ts, months away from the frozen clock.
    const far = await fetch(`${server.url}${clientPath('meta/cp')}`);
    expect(far.headers.get('x-mockvideo-findings')).toBe('1');
    const near = await fetch(`${server.url}${clientPath('meta/cp').replace(/_ts=\d+/, `_ts=${FROZEN_SECONDS - 60}`)}`);
    expect(near.headers.get('x-mockvideo-findings')).toBe('0');
    const { requests } = await (await admin('/requests')).json();
    expect(requests[0].findings).toEqual([expect.objectContaining({ parameter: '_ts', rule: 'ts-skew' })]);
    expect((await (await admin('/health')).json()).clock).toEqual({
      now: '2026-01-31T12:00:00.000Z',
      nowSeconds: FROZEN_SECONDS,
      mode: 'frozen',
      frozenAt: '2026-01-31T12:00:00.000Z',
      offsetMs: 0,
    });
  });

  it('is set at run time: relative times follow it; {} is real time again; a bad body gets a 400 naming the field', async () => {
    const dir = scenariosDir();
    server = await startCli([
      'serve',
      '--port',
      '0',
      '--scenarios-dir',
      dir,
      '--scenario',
      'aged-plugins',
      '--clock-offset',
      '-2d',
    ]);
    const shifted = (await updatedAt())[0]!;
    expect(Math.abs(shifted - (Math.floor(Date.now() / 1000) - 2 * 86_400 - TWO_YEARS))).toBeLessThan(5);
    const put = (body: unknown) =>
      admin('/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await (await put({ frozen: FROZEN, offset: '+1d' })).json()).now).toBe('2026-02-01T12:00:00.000Z');
    expect(await updatedAt()).toEqual((await updatedAt()).map(() => FROZEN_SECONDS + 86_400 - TWO_YEARS));
    expect((await (await put({})).json()).mode).toBe('real');
    expect((await fetch(`${server.url}${clientPath('meta/cp')}`)).headers.get('x-mockvideo-findings')).toBe('0');
    const bad = await put({ offset: 'yesterday' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/"yesterday" is not a duration/);
    expect((await (await admin('/clock')).json()).mode).toBe('real');
  });

  it('refuses a bad --clock with one line naming the flag', async () => {
    await expect(startCli(['serve', '--port', '0', '--clock', 'tomorrow'])).rejects.toThrow(
      /--clock tomorrow: "tomorrow" is not a moment/,
    );
  });
});

describe('the scenario setting "state"', () => {
  it('"state": "global" keeps one sequence for the whole server under the default --state client', async () => {
    server = await startCli(['serve', '--port', '0', '--scenarios-dir', scenariosDir(), '--scenario', 'twice-global']);
    const codec = async (device: string) =>
      (
        await (
          await fetch(
            `${server!.url}${clientPath('meta/setting').replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device}`)}`,
          )
        ).json()
      ).data.codec_level;
    expect([await codec('a'.repeat(64)), await codec('b'.repeat(64))]).toEqual(['3', '4']);
  });
});
