import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../contract/index.js';
import { FAULT_KINDS } from '../faults/fault.js';
import { parseScenario, parseScenarioText, type ParseResult } from './parse.js';
import { SHIPPED_SCENARIO_FILES } from './shipped.generated.js';

const faultLike = fc.record(
  {
    kind: fc.oneof(fc.constantFrom(...FAULT_KINDS, 'explode'), fc.jsonValue()),
    ms: fc.oneof(fc.integer(), fc.tuple(fc.integer(), fc.integer()), fc.jsonValue()),
    status: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.jsonValue()),
    rate: fc.oneof(fc.double(), fc.jsonValue()),
    seed: fc.jsonValue(),
    times: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const faultsSection = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.oneof(fc.constantFrom('*', ...OPERATION_NAMES, 'meta/nope'), fc.string()),
    fc.oneof(faultLike, fc.jsonValue()),
  ),
);
/** Scenario-shaped values: random operations, or a valid rest with a random `faults` section (so that it is read). */
const scenarioLike = fc.oneof(
  fc.record(
    {
      description: fc.jsonValue(),
      extends: fc.jsonValue(),
      operations: fc.dictionary(fc.constantFrom(...OPERATION_NAMES, 'meta/nope'), fc.jsonValue()),
      faults: faultsSection,
    },
    { requiredKeys: [] },
  ),
  fc.record({ extends: fc.constant('default'), operations: fc.constant({}), faults: faultsSection }),
);

/** A parse that failed names the file, a JSON path and what is wrong, for every problem. */
function expectNamedProblems(result: ParseResult): void {
  if (result.ok) return;
  expect(result.problems.length).toBeGreaterThan(0);
  for (const p of result.problems) {
    expect(p.source).toBe('random.json');
    expect(typeof p.path).toBe('string');
    expect(p.message.length).toBeGreaterThan(0);
  }
}

describe('scenario parser properties', () => {
  it('any JSON value either loads or yields problems naming a JSON path, never a crash', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), scenarioLike), (value) =>
        expectNamedProblems(parseScenario('random', value, 'random.json')),
      ),
    );
  });

  it('any text, JSON or not, loads or yields problems, never a crash', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      scenarioLike.map((v) => JSON.stringify(v)),
      scenarioLike.map((v) => `\uFEFF${JSON.stringify(v, null, 2).slice(0, -1)}`),
    );
    fc.assert(fc.property(text, (t) => expectNamedProblems(parseScenarioText('random', t, 'random.json'))));
  });

  it('a valid scenario serialised and loaded again is unchanged', () => {
    const shipped = fc.constantFrom(...Object.entries(SHIPPED_SCENARIO_FILES));
    fc.assert(
      fc.property(shipped, fc.string({ unit: 'grapheme', maxLength: 40 }), ([name, value], description) => {
        const edited = { ...(value as Record<string, unknown>), description };
        const first = parseScenario(name, edited, 'a.json');
        const again = parseScenario(name, JSON.parse(JSON.stringify(edited)), 'a.json');
        expect(first.ok).toBe(true);
        expect(again).toEqual(first);
      }),
      { numRuns: 30 },
    );
  });
});
