import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScenarioError } from '../errors.js';
import { buildCatalog, shippedScenarios } from '../scenarios/index.js';
import { loadScenarioCatalog } from './load-catalog.js';

const dirs: string[] = [];
function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-load-catalog-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadScenarioCatalog', () => {
  const shipped = () => buildCatalog(shippedScenarios()).list();

  it('without files of its own gives the shipped catalog (the one compiled at build time)', () => {
    expect(loadScenarioCatalog().list()).toStrictEqual(shipped());
    expect(loadScenarioCatalog(tempDir()).list()).toStrictEqual(shipped());
  });

  it('parses the files of a folder that has some: they add to and replace shipped scenarios', () => {
    const dir = tempDir({
      'mine.json': JSON.stringify({ extends: 'default', description: 'mine', operations: { ad_config: { data: {} } } }),
      'gallery.json': JSON.stringify({ extends: 'default', description: 'replaced', operations: {} }),
    });
    const catalog = loadScenarioCatalog(dir);
    expect(catalog.get('mine').description).toBe('mine');
    expect(catalog.get('mine').operations.ad_config[0]!.responses[0]!.body).toBe('{"data":{},"msg":"OK","result":1}');
    expect(catalog.get('gallery').description).toBe('replaced');
    expect(catalog.get('default')).toStrictEqual(shipped().find((s) => s.name === 'default'));
  });

  it('still reports every problem of a bad file', () => {
    const dir = tempDir({ 'bad.json': '{"operations": {"nope": {}}}' });
    expect(() => loadScenarioCatalog(dir)).toThrow(ScenarioError);
    expect(() => loadScenarioCatalog(dir)).toThrow(/unknown operation "nope"/);
  });
});
