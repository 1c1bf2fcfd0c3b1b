import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS_FILE, withErrorTable } from '../scripts/docs-tables.js';
import { generateAllFiles } from '../scripts/generate-scenarios.js';
import { ERROR_CODES } from '../src/error-codes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS_DIR = join(ROOT, 'scenarios');

describe('shipped scenario files', () => {
  it('are exactly what scripts/generate-scenarios.ts writes (edit the script, then run "npm run generate:scenarios")', () => {
    const expected = generateAllFiles();
    const committed = readdirSync(SCENARIOS_DIR).filter((f) => f.endsWith('.json'));
    expect(committed.sort()).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected)) {
      expect(readFileSync(join(SCENARIOS_DIR, file), 'utf8'), file).toBe(text);
    }
  });
});

describe(`the error codes (${ERRORS_FILE})`, () => {
  const page = readFileSync(join(ROOT, ERRORS_FILE), 'utf8');

  it('are the table of ERROR_CODES (edit src/error-codes.ts, then run "npx tsx scripts/docs-tables.ts")', () => {
    expect(page).toBe(withErrorTable(page));
    for (const code of Object.keys(ERROR_CODES)) expect(page, code).toContain(`| \`${code}\` |`);
  });

  it('are exactly the codes src/ throws and answers with: none only in the table, none missing from it', () => {
    const used = new Set<string>();
    for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file) || file === 'error-codes.ts') continue;
      for (const [code] of readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(/\bMV_[A-Z]+(?:_[A-Z]+)*\b/g))
        used.add(code);
    }
    expect([...used].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
