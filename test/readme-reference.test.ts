import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, helpOf, readmeWithReference } from '../scripts/readme-reference.js';

describe('README command reference', () => {
  it('is the real --help output of every command (run "npx tsx scripts/readme-reference.ts" after changing a flag)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(readmeWithReference(readme));
  });

  it.each(COMMANDS)('mockvideo %s --help teaches with examples', (command) => {
    expect(helpOf(command)).toMatch(/\nExamples:\n {2}mockvideo /);
  });
});
