import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';

const SCENARIOS = new URL('../../scenarios', import.meta.url).pathname;

describe('progress output of validate', () => {
  it('is absent when the output is not a terminal', async () => {
    const { code, stdout, stderr } = await runCli(['validate', SCENARIOS]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).not.toMatch(/Checking scenarios/);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('draws a bar on a terminal, and none there with CI set', () => {
    // `script` runs the command on a pseudo-terminal, as a person would.
    const { CI: _ci, ...withoutCi } = process.env;
    const onTty = (env: NodeJS.ProcessEnv) =>
      execFileSync('/usr/bin/script', ['-qec', `${process.execPath} ${BIN} validate ${SCENARIOS}`, '/dev/null'], {
        encoding: 'utf8',
        env,
      });
    expect(onTty(withoutCi)).toMatch(/Checking scenarios \[/);
    expect(onTty({ ...withoutCi, CI: 'true' })).not.toMatch(/Checking scenarios/);
  });
});
