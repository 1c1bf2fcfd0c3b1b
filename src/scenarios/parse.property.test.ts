import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../contract/index.js';
import { parseScenario } from './parse.js';
import { SHIPPED_SCENARIO_FILES } from './shipped.generated.js';

describe('scenario parser properties', () => {
  it('any JSON value either loads or yields problems naming a JSON path, never a crash', () => {
    const scenarioLike = fc.record(
      { description: fc.jsonValue(), extends: fc.jsonValue(), operations: fc.dictionary(fc.constantFrom(...OPERATION_NAMES, 'meta/nope'), fc.jsonValue()) },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), scenarioLike), (value) => {
      const result = parseScenario('random', value, 'random.json');
      if (!result.ok) {
        expect(result.problems.length).toBeGreaterThan(0);
        for (const p of result.problems) {
          expect(p.source).toBe('random.json');
          expect(typeof p.path).toBe('string');
          expect(p.message.length).toBeGreaterThan(0);
        }
      }
    }));
  });

  it('a valid scenario serialised and loaded again is unchanged', () => {
    const shipped = fc.constantFrom(...Object.entries(SHIPPED_SCENARIO_FILES));
    fc.assert(fc.property(shipped, fc.string({ unit: 'grapheme', maxLength: 40 }), ([name, value], description) => {
      const edited = { ...(value as Record<string, unknown>), description };
      const first = parseScenario(name, edited, 'a.json');
      const again = parseScenario(name, JSON.parse(JSON.stringify(edited)), 'a.json');
      expect(first.ok).toBe(true);
      expect(again).toEqual(first);
    }), { numRuns: 30 });
  });
});
