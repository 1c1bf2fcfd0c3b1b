import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateAllFiles } from '../scripts/generate-scenarios.js';

const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios', import.meta.url));

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
