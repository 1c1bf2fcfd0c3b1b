import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentationFiles, withTables } from '../../scripts/docs-tables.js';
import { scenarioNames } from '../../src/scenarios/scenario-names.js';

const ROOT = new URL('../../', import.meta.url);

describe('generated tables of the documentation', () => {
  it.each(documentationFiles())(
    '%s: its scenario tables are current (run "npx tsx scripts/docs-tables.ts" after changing a scenario)',
    (file) => {
      const text = readFileSync(new URL(file, ROOT), 'utf8');
      expect(text).toBe(withTables(text));
    },
  );

  it('docs/scenarios.md lists every shipped scenario', () => {
    const text = readFileSync(new URL('docs/scenarios.md', ROOT), 'utf8');
    expect(scenarioNames.length).toBe(13);
    for (const name of scenarioNames) expect(text, name).toContain(`| \`${name}\` |`);
  });
});
