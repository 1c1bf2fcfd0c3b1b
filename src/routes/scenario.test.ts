import { describe, expect, it } from 'vitest';
import type { PreparedResponse } from '../scenarios/compile.js';
import { shippedCatalog } from '../scenarios/index.js';
import { createRoutes } from './plan.js';
import { ScenarioResponder } from './responder.js';
import { preparedAnswer } from './scenario.js';

const prepared = (body: string): PreparedResponse => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body, hasOrigin: body.includes('{origin}') });

describe('preparedAnswer', () => {
  it('keeps one shared answer per scenario, however many scenarios share a prepared response', () => {
    const shared = prepared('{"data":{},"msg":"OK","result":1}');
    const names = Array.from({ length: 50 }, (_, i) => `bench-${i}`);
    const first = names.map((name) => preparedAnswer(shared, name));
    const again = names.map((name) => preparedAnswer(shared, name));
    again.forEach((answer, i) => expect(answer).toBe(first[i]));
    expect(first[7]!.headers['x-mockvideo-scenario']).toBe('bench-7');
  });

  it('answers each origin with its own body, and still answers right beyond the origins it remembers', () => {
    const withOrigin = prepared('{"data":{"thumb":"{origin}/media/thumb/1.png"},"msg":"OK","result":1}');
    const origins = Array.from({ length: 40 }, (_, i) => `http://10.0.2.${i}:8787`);
    for (const origin of origins) expect(JSON.parse(preparedAnswer(withOrigin, 'default', origin).body).data.thumb).toBe(`${origin}/media/thumb/1.png`);
    const last = preparedAnswer(withOrigin, 'default', origins[39]);
    expect(preparedAnswer(withOrigin, 'default', origins[39])).toBe(last);
  });
});

describe('sequences per client through the routes (issue 18)', () => {
  const routes = createRoutes({ scenarios: { responder: new ScenarioResponder(shippedCatalog()), activeScenario: () => 'settings-twice' } });
  const step = async (query: string, address?: string) => {
    const plan = await routes({ method: 'GET', path: '/api/g1/meta/setting', query, origin: 'http://x', headers: {}, ...(address ? { address } : {}) });
    return plan.kind === 'answer' ? plan.answer.headers['x-mockvideo-step'] : plan.kind;
  };

  it('names the client by _sdevid, else _anoyid, else the connection address, else one shared client', async () => {
    expect([await step('_sdevid=a'), await step('_sdevid=b'), await step('_sdevid=a')]).toEqual(['1/2', '1/2', '2/2']);
    expect([await step('_anoyid=u'), await step('_anoyid=u')]).toEqual(['1/2', '2/2']);
    // The address names a client only when the query names none (the Node host gives it; msw cannot).
    expect([await step('', '10.0.2.15'), await step('', '10.0.2.16'), await step('', '10.0.2.15'), await step('_sdevid=c', '10.0.2.15')]).toEqual(['1/2', '1/2', '2/2', '1/2']);
    expect([await step(''), await step('')]).toEqual(['1/2', '2/2']);
  });
});
