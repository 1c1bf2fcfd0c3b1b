// The tools of `npm run bench` that are not mockvideo's dependencies: talkback is installed from the
// npm registry into a temporary folder at bench time, never into the repository.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The talkback release line measured (`npm install talkback@4`). */
export const TALKBACK_SPEC = 'talkback@4';

/**
 * Installs talkback into `prefix` (a new temporary folder when not given) with npm, unless it is
 * there already. Returns the prefix, its exact version, and whether this call made the folder (so
 * the caller removes it). Throws with npm's output when the install fails (e.g. no registry).
 */
export function installTalkback(prefix) {
  const dir = prefix || mkdtempSync(join(tmpdir(), 'mockvideo-bench-talkback-'));
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, 'node_modules', 'talkback', 'package.json');
  if (!existsSync(manifest)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(
      npm,
      ['install', '--prefix', dir, TALKBACK_SPEC, '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: dir, encoding: 'utf8' },
    );
    if (result.status !== 0 || !existsSync(manifest)) {
      throw new Error(
        `npm install ${TALKBACK_SPEC} into ${dir} failed (exit ${result.status}); install it yourself and pass BENCH_TALKBACK_PREFIX=<folder>:\n${`${result.stdout}${result.stderr}`.slice(-2000)}`,
      );
    }
  }
  return { prefix: dir, version: JSON.parse(readFileSync(manifest, 'utf8')).version, made: !prefix };
}
