import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from './shipped-handlers.js';

// scenarioNames is tested with ScenarioName in src/scenarios/scenario-names.test.ts.
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
