import { describe, expect, it } from 'vitest';
import { minimalScenario } from '../../test/support/minimal-scenario.js';
import { buildCatalog, checkScenarios } from './catalog.js';
import { parseScenario, type ParsedScenario } from './parse.js';

function parsed(name: string, value: unknown): ParsedScenario {
  const result = parseScenario(name, value, `${name}.json`);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.scenario;
}

describe('scenario catalog', () => {
  it('inherits operations through extends and replaces the overridden ones whole', () => {
    const catalog = buildCatalog([
      parsed('base', minimalScenario()),
      parsed('child', { extends: 'base', operations: { ad_config: { data: {} } } }),
    ]);
    const child = catalog.get('child');
    expect(child.ancestry).toEqual(['base']);
    expect(child.operations.ad_config[0]!.responses[0]!.body).toBe('{"data":{},"msg":"OK","result":1}');
    expect(child.operations['meta/cp']).toEqual(catalog.get('base').operations['meta/cp']);
    // An operation inherited unchanged is the parent's compiled stubs themselves (compiled once); an overridden one is its own.
    expect(child.operations['meta/cp']).toBe(catalog.get('base').operations['meta/cp']);
    expect(child.operations.ad_config).not.toBe(catalog.get('base').operations.ad_config);
    expect(child.operations['meta/cp'][0]!.responses[0]!.body).toContain('Provider One');
  });

  it('reports a cycle, an unknown parent and missing operations', () => {
    const { problems } = checkScenarios([
      parsed('a', { extends: 'b', operations: {} }),
      parsed('b', { extends: 'a', operations: {} }),
      parsed('c', { extends: 'nope', operations: {} }),
      parsed('d', { operations: { ad_config: { data: {} } } }),
    ]);
    const text = problems.map((p) => `${p.source} ${p.path}: ${p.message}`).join('\n');
    expect(text).toMatch(/a\.json extends: scenarios extend each other in a cycle: a → b → a/);
    expect(text).toMatch(/c\.json extends: extends unknown scenario "nope"/);
    expect(text).toMatch(/d\.json operations: operations meta\/cp, .* are not defined and not inherited/);
  });

  it('checks that plugin ids and item providers are content providers', () => {
    const value = minimalScenario() as Record<string, any>;
    value.operations['meta/plugin'].data[0].id = 'ghost';
    value.operations['meta/plugin'].data[0].market_sign.ext_mimarket_external_url =
      `https://x.example.com/api/g1/meta/upgrade?uri=${encodeURIComponent('mv://player-plugin/ghost/2')}&_region=IN`;
    const { problems } = checkScenarios([parsed('mini', value)]);
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'operations["meta/plugin"].data[0].id',
        message: expect.stringContaining('must equal the id of a content provider'),
      }),
    ]);
  });

  it('throws an error listing the known names for an unknown scenario', () => {
    const catalog = buildCatalog([parsed('base', minimalScenario())]);
    expect(() => catalog.get('nope')).toThrow('Unknown scenario "nope". Known scenarios: base.');
  });
});
