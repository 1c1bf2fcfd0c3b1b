import { readdirSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createHandlers } from '../msw/handlers.js';
import { buildCatalog } from './catalog.js';
import { isScenarioName, scenarioNames, type ScenarioName } from './scenario-names.js';
import { shippedScenarios } from './shipped.js';

const SHIPPED_FILES = readdirSync(new URL('../../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('ScenarioName, scenarioNames, isScenarioName', () => {
  it('name every shipped scenario file, default first, frozen', () => {
    expect([...scenarioNames].sort()).toEqual([...SHIPPED_FILES].sort());
    expect(scenarioNames[0]).toBe('default');
    expect(Object.isFrozen(scenarioNames)).toBe(true);
  });

  it('narrow a string to a shipped name, and only those', () => {
    const names: unknown[] = [...SHIPPED_FILES, 'galery', '', 'DEFAULT', 42, undefined];
    expect(names.filter(isScenarioName)).toEqual(SHIPPED_FILES);
  });

  it('type createHandlers: shipped names only without a catalog, any string with one (checked by tsc)', () => {
    expectTypeOf(scenarioNames).toEqualTypeOf<readonly ScenarioName[]>();
    expectTypeOf<'gallery'>().toExtend<ScenarioName>();
    expectTypeOf<'galery'>().not.toExtend<ScenarioName>();
    // @ts-expect-error a misspelled shipped name does not compile
    expect(() => createHandlers({ scenario: 'galery' })).toThrow(/Unknown scenario "galery"/);
    const fromOutside: string = 'gallery';
    // @ts-expect-error a plain string must be narrowed first
    expect(createHandlers({ scenario: fromOutside })).toHaveLength(1);
    if (isScenarioName(fromOutside)) expect(createHandlers({ scenario: fromOutside })).toHaveLength(1);
    // With a catalog of one's own, its names are strings checked at run time.
    const catalog = buildCatalog(shippedScenarios());
    expect(createHandlers({ scenario: fromOutside, catalog })).toHaveLength(1);
    expect(() => createHandlers({ scenario: 'mine', catalog })).toThrow(/Unknown scenario "mine"/);
  });
});
