import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHIPPED_SCENARIO_DIGESTS } from '../scenarios/shipped-digests.generated.js';
import { SHIPPED_SCENARIO_FILES } from '../scenarios/shipped.generated.js';
import { sameAsShipped, scenarioFilesToParse } from './scenario-files.js';

const dir = mkdtempSync(join(tmpdir(), 'mockvideo-scenario-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sameAsShipped', () => {
  it('has a digest for every embedded shipped scenario, of that scenario', () => {
    expect(Object.keys(SHIPPED_SCENARIO_DIGESTS).sort()).toStrictEqual(Object.keys(SHIPPED_SCENARIO_FILES).sort());
    for (const [name, value] of Object.entries(SHIPPED_SCENARIO_FILES)) {
      expect(SHIPPED_SCENARIO_DIGESTS[name]).toBe(createHash('sha256').update(JSON.stringify(value)).digest('hex'));
    }
  });

  it('knows a shipped file by its JSON (whatever the formatting and $schema), and an edited one as changed', () => {
    const gallery = SHIPPED_SCENARIO_FILES.gallery as Record<string, unknown>;
    writeFileSync(join(dir, 'gallery.json'), JSON.stringify({ $schema: './scenario.schema.json', ...gallery }, null, 4));
    expect(sameAsShipped(join(dir, 'gallery.json'))).toBe(true);
    writeFileSync(join(dir, 'gallery.json'), JSON.stringify({ ...gallery, description: 'edited' }));
    expect(sameAsShipped(join(dir, 'gallery.json'))).toBe(false);
    writeFileSync(join(dir, 'mine.json'), JSON.stringify(gallery));
    expect(sameAsShipped(join(dir, 'mine.json'))).toBe(false);
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(sameAsShipped(join(dir, 'broken.json'))).toBe(false);
  });

  it('leaves nothing to parse in the package\'s own unchanged scenarios folder', () => {
    expect(scenarioFilesToParse()).toStrictEqual([]);
  });
});
