import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, helpOf, withReference, REFERENCE_FILE } from '../scripts/readme-reference.js';

describe('command reference (docs/commands.md)', () => {
  it('is the real --help output of every command (run "npx tsx scripts/readme-reference.ts" after changing a flag)', () => {
    const text = readFileSync(new URL(`../${REFERENCE_FILE}`, import.meta.url), 'utf8');
    expect(text).toBe(withReference(text));
  });

  it('covers every command that "mockvideo --help" lists (add a new one to COMMANDS)', () => {
    const commandsSection = helpOf('').split('\nCommands:\n')[1]?.split('\nOptions:\n')[0] ?? '';
    const listed = [...commandsSection.matchAll(/^ {2}mockvideo ([a-z-]+)/gm)]
      .map((m) => m[1])
      .filter((name) => name !== 'completion');
    expect(listed.length).toBeGreaterThan(5);
    // `scenario from-recordings` is listed as `scenario <action>`: compare first words.
    expect([...new Set(COMMANDS.map((command) => command.split(' ')[0]))].sort()).toEqual(listed.sort());
  });

  it.each(COMMANDS)('mockvideo %s --help teaches with examples', (command) => {
    expect(helpOf(command)).toMatch(/\nExamples:\n {2}mockvideo /);
  });
});
