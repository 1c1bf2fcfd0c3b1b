import { describe, expect, it } from 'vitest';
import { checkScenarios } from './catalog.js';
import { extendsChainProblem, nestingProblem } from './limits.js';

/** The longest `extends` chain: docs/recording-safety.md ("Limits"). */
const MAX_EXTENDS_CHAIN = 32;
import { parseScenarioText } from './parse.js';

describe('scenario limits (issue 21.7)', () => {
  it('refuses a file nested 5,000 deep with one problem naming it, no stack overflow', () => {
    const text = `{"operations":{"ad_config":{"data":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const result = parseScenarioText('deep', text, 'scenarios/deep.json');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      {
        source: 'scenarios/deep.json',
        path: '',
        message: expect.stringMatching(/^nested 65 levels deep or more, over the limit of 64/),
      },
    ]);
  });

  it('lets an ordinary depth through', () => {
    expect(nestingProblem({ a: [{ b: [1, { c: {} }] }] }, 'x.json')).toBeUndefined();
  });

  it('cuts a 5,000-scenario extends chain with one problem naming the deepest file', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => ({
      name: `s${i}`,
      source: `scenarios/s${i}.json`,
      ...(i ? { extends: `s${i - 1}` } : {}),
    }));
    const { tooLong, problem } = extendsChainProblem(chain);
    expect(tooLong.size).toBe(5000 - MAX_EXTENDS_CHAIN);
    expect(problem).toEqual({
      source: 'scenarios/s4999.json',
      path: 'extends',
      message: expect.stringMatching(
        /^its extends chain is 5000 scenarios long, over the limit of 32 \(4967 more scenarios extend past the limit too\)/,
      ),
    });
  });

  it('leaves a cycle to the cycle check', () => {
    expect(
      extendsChainProblem([
        { name: 'a', source: 'a.json', extends: 'b' },
        { name: 'b', source: 'b.json', extends: 'a' },
      ]).tooLong.size,
    ).toBe(0);
  });

  it('checkScenarios reports the long chain once and does not overflow the stack', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => ({
      name: `s${i}`,
      source: `s${i}.json`,
      description: '',
      operations: {},
      listed: new Set<never>(),
      faults: {},
      ...(i ? { extends: `s${i - 1}` } : {}),
    }));
    const { problems } = checkScenarios(chain);
    expect(problems.filter((p) => p.message.includes('extends chain'))).toHaveLength(1);
  });
});
