import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every temporary folder of one test run (the tests' own, the CLI's they
 * spawn, Chromium's profiles) goes under one folder made here, `TMPDIR` for the whole run, and
 * removed at its end, so a run leaves nothing in the system's temporary folder, even where a test
 * stops before its own clean-up.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'mockvideo-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
