import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { minimalScenario } from '../../test/support/minimal-scenario.js';
import { checkScenarios } from './catalog.js';
import { scenarioJsonSchema } from './editor-schema.js';
import { parseScenario, type ParsedScenario } from './parse.js';

// Issue 20, item 7: overriding one setting needed all 16 fields of meta/setting (else 14 lines of
// "expected number, received undefined"); an `extends` typo was reported only after every data
// error was fixed; in editors the JSON Schema led with "must have required property 'sequence'".

function parsed(name: string, value: unknown): ParsedScenario {
  const result = parseScenario(name, value, `${name}.json`);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.scenario;
}
const bodyOf = (
  scenarios: ParsedScenario[],
  name: string,
  op: 'meta/setting' | 'ad_config' | 'localplay/diversion',
) => {
  const { catalog, problems } = checkScenarios(scenarios);
  expect(problems).toEqual([]);
  return JSON.parse(catalog.get(name).operations[op][0]!.responses[0]!.body).data;
};

describe('object data in part, completed from the parent', () => {
  it('merges objects and replaces arrays; {} stays empty', () => {
    const value = minimalScenario() as { operations: Record<string, unknown> };
    value.operations.ad_config = { data: { a: 1, b: { c: 1, d: 2 }, e: [1, 2] } };
    const base = parsed('base', value);
    const child = parsed('child', { extends: 'base', operations: { ad_config: { data: { b: { c: 3 }, e: [] } } } });
    const empty = parsed('empty', { extends: 'base', operations: { ad_config: { data: {} } } });
    expect(bodyOf([base, child], 'child', 'ad_config')).toEqual({ a: 1, b: { c: 3, d: 2 }, e: [] });
    expect(bodyOf([base, empty], 'empty', 'ad_config')).toEqual({});
  });

  it('takes one setting and the other fifteen from the parent', () => {
    const base = parsed('base', minimalScenario());
    const child = parsed('child', {
      extends: 'base',
      operations: { 'meta/setting': { data: { recommend_exit_times: 9 } } },
    });
    const parent = bodyOf([base], 'base', 'meta/setting');
    expect(bodyOf([base, child], 'child', 'meta/setting')).toEqual({ ...parent, recommend_exit_times: 9 });
  });

  it('completes every response of a sequence, and ad config objects', () => {
    const value = minimalScenario() as { operations: Record<string, unknown> };
    value.operations.ad_config = { data: { slot: 'pre-roll', caps: { daily: 3, hourly: 1 } } };
    const base = parsed('base', value);
    const child = parsed('child', {
      extends: 'base',
      operations: { ad_config: { sequence: [{ data: { caps: { daily: 5 } } }, { data: {} }] } },
    });
    const { catalog } = checkScenarios([base, child]);
    const bodies = catalog.get('child').operations.ad_config[0]!.responses.map((r) => JSON.parse(r.body).data);
    expect(bodies).toEqual([{ slot: 'pre-roll', caps: { daily: 5, hourly: 1 } }, {}]);
  });

  it('still checks each field given, and the whole after merging', () => {
    expect(
      parseScenario(
        'child',
        { extends: 'base', operations: { 'meta/setting': { data: { language_switch: 'on' } } } },
        'child.json',
      ),
    ).toMatchObject({
      ok: false,
      problems: [
        { path: 'operations["meta/setting"].data.language_switch', message: expect.stringMatching(/expected number/) },
      ],
    });
    const root = parseScenario(
      'root',
      {
        ...minimalScenario(),
        operations: {
          ...(minimalScenario() as { operations: object }).operations,
          'meta/setting': { data: { language_switch: 1 } },
        },
      },
      'root.json',
    );
    expect(root.ok).toBe(false);
  });
});

describe('every problem in one run', () => {
  it('reports an unknown extends of a file that also has data errors', () => {
    const broken = parseScenario(
      'typo',
      { extends: 'defualt', operations: { 'meta/setting': { data: { language_switch: 'on' } } } },
      'typo.json',
    );
    expect(broken.ok).toBe(false);
    const { problems } = checkScenarios(
      [parsed('base', minimalScenario())],
      [{ name: 'typo', source: 'typo.json', ...(broken.ok ? {} : { extends: broken.extends! }) }],
    );
    expect(problems).toEqual([
      { source: 'typo.json', path: 'extends', message: expect.stringMatching(/^extends unknown scenario "defualt"/) },
    ]);
  });

  it('tells a scenario extending a broken one that its parent has problems', () => {
    const { problems } = checkScenarios(
      [parsed('child', { extends: 'typo', operations: {} })],
      [{ name: 'typo', source: 'typo.json' }],
    );
    expect(problems).toEqual([
      {
        source: 'child.json',
        path: 'extends',
        message: 'extends scenario "typo", which has problems (listed with its file)',
      },
    ]);
  });
});

describe('the JSON Schema for editors', () => {
  const validate = new Ajv2020({ allErrors: false, strict: false }).compile(scenarioJsonSchema());

  it('reports the data error first, not a missing "sequence"', () => {
    expect(validate({ extends: 'default', operations: { 'meta/setting': { data: { language_switch: 'on' } } } })).toBe(
      false,
    );
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/operations/meta~1setting/data/language_switch' });
    expect(
      validate({
        extends: 'default',
        operations: { 'meta/setting': [{ sequence: [{ data: { language_switch: 'on' } }] }] },
      }),
    ).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      instancePath: '/operations/meta~1setting/0/sequence/0/data/language_switch',
    });
  });

  it('accepts a stub that gives part of the settings', () => {
    expect(
      validate({ extends: 'default', operations: { 'meta/setting': { data: { recommend_exit_times: 2 } } } }),
    ).toBe(true);
  });
});
