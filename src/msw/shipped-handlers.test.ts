import { readdirSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers, scenarioNames } from './shipped-handlers.js';

const SHIPPED_FILES = readdirSync(new URL('../../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('scenarioNames', () => {
  it('names every shipped scenario file, default first', () => {
    expect([...scenarioNames].sort()).toEqual([...SHIPPED_FILES].sort());
    expect(scenarioNames[0]).toBe('default');
  });

  it('cannot be changed by a test', () => {
    expect(Object.isFrozen(scenarioNames)).toBe(true);
  });
});

describe('handlers', () => {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('serves the default scenario on any origin', async () => {
    const response = await fetch('https://any.example.org/api/g1/ad_config?ref=');
    expect(response.headers.get('x-mockvideo-scenario')).toBe('default');
    expect(Object.keys(((await response.json()) as { data: object }).data).length).toBeGreaterThan(0);
  });

  it('cannot be changed by a test', () => {
    expect(Object.isFrozen(handlers)).toBe(true);
  });
});
