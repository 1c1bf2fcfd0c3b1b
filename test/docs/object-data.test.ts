// docs/qa-and-scenarios.md says what a scenario that extends another does with object `data`
// (issue 41, item 4: it said "replaces"): its example, served as written, answers the field it
// gives and the parent's other fields.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli } from '../support/cli.js';
import { markdownBlocks } from '../support/markdown-blocks.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(removeTempDirs);

const GUIDE = fileURLToPath(new URL('../../docs/qa-and-scenarios.md', import.meta.url));

describe('docs/qa-and-scenarios.md on object data', () => {
  it("says object data is merged with the parent's, not replaced", () => {
    const text = readFileSync(GUIDE, 'utf8');
    expect(text).not.toMatch(/extends another and replaces single\s+operations/);
    expect(text).toMatch(/merged with the parent's/);
  });

  it("its partial meta/setting example serves the one field it gives and the parent's others", async () => {
    const block = markdownBlocks(GUIDE).find((b) => b.lang === 'json' && b.code.includes('"meta/setting"'))!;
    const scenario = JSON.parse(block.code) as { extends: string; operations: Record<string, { data: object }> };
    const own = scenario.operations['meta/setting']!.data;
    const dir = tempDir('mockvideo-merge-');
    mkdirSync(join(dir, 'scenarios'));
    writeFileSync(
      join(dir, 'scenarios/merged.json'),
      block.code.replace('../scenarios/scenario.schema.json', 'x.json'),
    );
    const server = await startCli(
      ['serve', '--port', '0', '--no-watch', '--quiet', '--scenarios-dir', 'scenarios', '--scenario', 'merged'],
      { cwd: dir },
    );
    try {
      const child = (await (await fetch(`${server.url}${clientPath('meta/setting')}`)).json()).data;
      const parent = (
        await (await fetch(`${server.url}/scenarios/${scenario.extends}${clientPath('meta/setting')}`)).json()
      ).data;
      expect(Object.keys(own).length).toBeLessThan(Object.keys(parent).length);
      expect(child).toEqual({ ...parent, ...own });
    } finally {
      await server.stop();
    }
  });
});
