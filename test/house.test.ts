// The house checks, run by `npm test` like every other test: the formatter, the linter, the
// type-check of src/, test/ and scripts/, the dead-code check and the layer rules (docs/architecture.md, "The house checks"). Each runs its
// npm script, so what fails here is what a developer runs by hand: `npm run lint`, `npm run
// format:check`, `npm run typecheck`, `npm run knip`, `npm run layers` (`npm run format` fixes the formatting).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run <script>` at the root; resolves with its exit code and output (never rejects). */
function runScript(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', script],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('the house checks', () => {
  it.concurrent.each([
    ['format:check', 'the formatter (Prettier) finds every file formatted'],
    ['lint', 'the linter (ESLint, typescript-eslint) finds nothing'],
    ['typecheck', 'TypeScript finds no type error in src/, test/ and scripts/'],
    ['knip', 'knip finds no unused file, export or dependency'],
    ['layers', 'dependency-cruiser finds no import against the layer rules'],
  ])(
    'npm run %s: %s',
    async (script) => {
      const { code, output } = await runScript(script);
      expect(code, `npm run ${script} failed:\n${output}`).toBe(0);
    },
    // About 10 s of CPU each (Prettier the most); the rest is waiting for a core beside the other tests.
    180_000,
  );
});
