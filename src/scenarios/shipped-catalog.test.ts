import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from './catalog.js';
import { parseScenario, type ParsedScenario } from './parse.js';
import { shippedScenarios } from './shipped.js';
import { compiledShippedCatalog } from './shipped-catalog.js';

const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The shipped scenario files as they are on disk now, parsed as at runtime. */
function parsedFromDisk(): ParsedScenario[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
    .sort()
    .map((file) => {
      const value = JSON.parse(readFileSync(`${SCENARIOS_DIR}${file}`, 'utf8')) as Record<string, unknown>;
      delete value.$schema;
      const result = parseScenario(file.slice(0, -'.json'.length), value, `scenarios/${file}`);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      return result.scenario;
    });
}

describe('the shipped catalog compiled at build time (scripts/compile-shipped-catalog.ts)', () => {
  it('is exactly the catalog parsed and compiled at runtime (run "npm run build" after changing scenarios or the compiler)', () => {
    const compiled = compiledShippedCatalog();
    const parsed = buildCatalog(shippedScenarios());
    expect(compiled.names).toEqual(parsed.names);
    expect(compiled.list()).toStrictEqual(parsed.list());
  });

  it('is what scenarios/*.json on disk give now', () => {
    expect(compiledShippedCatalog().list()).toStrictEqual(buildCatalog(parsedFromDisk()).list());
  });

  it('gives a new catalog at every call; inside it, a scenario shares the stubs it inherits, as compiling does', () => {
    const a = compiledShippedCatalog();
    const b = compiledShippedCatalog();
    expect(a).not.toBe(b);
    expect(a.get('default').operations['meta/setting'][0]).not.toBe(b.get('default').operations['meta/setting'][0]);
    // `gallery` extends `default` and keeps its meta/setting stub: the very same compiled stub, in both forms of the catalog.
    expect(a.get('gallery').ancestry).toContain('default');
    expect(a.get('gallery').operations['meta/setting'][0]).toBe(a.get('default').operations['meta/setting'][0]);
    const parsed = buildCatalog(shippedScenarios());
    expect(parsed.get('gallery').operations['meta/setting'][0]).toBe(
      parsed.get('default').operations['meta/setting'][0],
    );
  });
});
