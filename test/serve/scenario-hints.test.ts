// Writing scenarios as a new user does (issue 41, item 4): new-scenario writes only what the new
// scenario changes, from-recordings says what it left out and why, validate says "did you mean".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { runCli, startCli } from '../support/cli.js';
import { recordSession, removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(removeTempDirs);

describe('new-scenario', () => {
  it('writes only what the new scenario changes (nothing yet), and says how to change one field', async () => {
    const cwd = tempDir('mockvideo-new-');
    const created = await runCli(['new-scenario', 'my-gallery', '--from', 'gallery'], { cwd });
    expect(created.code).toBe(0);
    const file = JSON.parse(readFileSync(join(cwd, 'scenarios/my-gallery.json'), 'utf8'));
    expect(file.operations).toEqual({});
    expect(created.stdout).toMatch(/changes nothing yet/);
    expect(created.stdout).toMatch(/merged with "gallery"'s/);
    expect(created.stdout).toContain('"meta/setting": { "data": { "recommend_exit_times": 0 } }');
    expect((await runCli(['validate', 'scenarios'], { cwd })).code).toBe(0);
  });
});

describe('scenario from-recordings', () => {
  it('says how many operations it left out of the file, and why', async () => {
    // Recorded from a mockvideo serving "default": what it recorded is what "default" answers.
    const upstream = await startCli(['serve', '--port', '0', '--no-watch', '--quiet']);
    let dir: string;
    try {
      dir = (await recordSession(upstream.url, [clientPath('ad_config'), clientPath('meta/cp')])).dir;
    } finally {
      await upstream.stop();
    }
    const out = tempDir('mockvideo-from-');
    const made = await runCli(['scenario', 'from-recordings', dir, '--name', 'same', '--scenarios-dir', out]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'same.json'), 'utf8'))).toMatchObject({
      extends: 'default',
      operations: {},
    });
    expect(made.stdout).toMatch(
      /^Created .*same\.json: 0 operations from the recordings; 6 left out, inherited from "default": ad_config, meta\/cp \(recorded as "default" answers them\), meta\/setting, meta\/plugin, localplay\/diversion, localplay\/recomm \(not recorded\)\.$/m,
    );
  }, 30_000);
});

describe('validate', () => {
  it('offers "did you mean" for misspelled field, operation and scenario names', async () => {
    const dir = tempDir('mockvideo-typos-');
    mkdirSync(join(dir, 'a'));
    writeFileSync(
      join(dir, 'a/typos.json'),
      JSON.stringify({
        description: 'typos',
        extends: 'gallery',
        operations: {
          'meta/settings': { data: {} },
          'meta/setting': { data: { codec_levle: '3' }, stauts: 200 },
          ad_config: { dta: {} },
        },
      }),
    );
    writeFileSync(join(dir, 'a/top.json'), JSON.stringify({ descripton: 'x', extends: 'default', operations: {} }));
    writeFileSync(join(dir, 'a/parent.json'), JSON.stringify({ description: 'x', extends: 'galery', operations: {} }));
    const { code, stdout } = await runCli(['validate', join(dir, 'a')]);
    expect(code).toBe(1);
    for (const line of [
      /typos\.json at operations\["meta\/settings"\]: unknown operation "meta\/settings"; .* Did you mean "meta\/setting"\?$/m,
      /typos\.json at operations\["meta\/setting"\]\.data: Unrecognized key: "codec_levle"\. Did you mean "codec_level"\?$/m,
      /typos\.json at operations\["meta\/setting"\]: Unrecognized key: "stauts"\. Did you mean "status"\?$/m,
      /typos\.json at operations\.ad_config: Unrecognized key: "dta"\. Did you mean "data"\?$/m,
      /top\.json: Unrecognized key: "descripton"\. Did you mean "description"\?$/m,
      /parent\.json at extends: extends unknown scenario "galery"; known scenarios: .* Did you mean "gallery"\?$/m,
    ])
      expect(stdout).toMatch(line);
  });
});
