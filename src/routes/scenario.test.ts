import { describe, expect, it } from 'vitest';
import { shippedCatalog } from '../scenarios/shipped-catalog.js';
import { createRoutes } from './plan.js';
import { ScenarioResponder } from './responder.js';
import { OPERATION_NAMES } from '../contract/core.js';
import { buildCatalog, type ScenarioCatalog } from '../scenarios/catalog.js';
import { parseScenario, type ParsedScenario } from '../scenarios/parse.js';
import { shippedScenarios } from '../scenarios/shipped.js';
import { bodyText } from './request.js';

describe('the answer of a stub, made once per origin (preparedAnswer)', () => {
  const routes = createRoutes({
    scenarios: { responder: new ScenarioResponder(shippedCatalog()), activeScenario: () => 'default' },
  });
  const answerOf = async (operation: string, origin: string) => {
    const plan = await routes({ method: 'GET', path: `/api/g1/${operation}`, query: '_sdevid=a', origin, headers: {} });
    if (plan.kind !== 'answer') throw new Error(plan.kind);
    return plan.answer;
  };

  it('is made once per stub and origin: one body buffer shared by every request', async () => {
    // default's ad_config names no origin: every origin gets the same answer.
    const first = await answerOf('ad_config', 'http://a');
    expect((await answerOf('ad_config', 'http://b')).body).toBe(first.body);
    expect(first.body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(first.body as Uint8Array)).toBe(bodyText(first));
  });

  it('answers each origin with its own body', async () => {
    // default's meta/cp points its images at `{origin}`; 40 origins are more than are remembered at once.
    for (const origin of Array.from({ length: 40 }, (_, i) => `http://10.0.2.${i}:8787`)) {
      const text = bodyText(await answerOf('meta/cp', origin));
      expect(text).toContain(`${origin}/__mockvideo/media/`);
      expect(text).not.toContain('{origin}');
    }
    expect((await answerOf('meta/cp', 'http://10.0.2.0:8787')).body).toBe(
      (await answerOf('meta/cp', 'http://10.0.2.0:8787')).body,
    );
  });
});

describe('answers of 50 scenarios that extend default and change nothing (one compiled copy, shared bodies)', () => {
  const parsed = (name: string, value: unknown): ParsedScenario => {
    const result = parseScenario(name, value, `${name}.json`);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.scenario;
  };
  const names = Array.from({ length: 50 }, (_, i) => `bench-${String(i).padStart(2, '0')}`);
  const catalog = () =>
    buildCatalog([...shippedScenarios(), ...names.map((name) => parsed(name, { extends: 'default', operations: {} }))]);
  const routesOf = (scenarios: ScenarioCatalog) =>
    createRoutes({ scenarios: { responder: new ScenarioResponder(scenarios), activeScenario: () => 'default' } });
  const query = '_sdevid=a&_region=IN';
  const answerOf = async (routes: ReturnType<typeof createRoutes>, path: string, origin = 'http://127.0.0.1:8787') => {
    const plan = await routes({ method: 'GET', path, query, origin, headers: {} });
    if (plan.kind !== 'answer') throw new Error(plan.kind);
    return {
      status: plan.answer.status,
      headers: plan.answer.headers,
      body: bodyText(plan.answer),
      scenario: plan.scenario,
    };
  };
  const every = (routes: ReturnType<typeof createRoutes>) =>
    Promise.all(
      names.flatMap((name) => OPERATION_NAMES.map((op) => answerOf(routes, `/scenarios/${name}/api/g1/${op}`))),
    );

  it('each answers as default does, with its own scenario header, from a cold and from a warm cache alike', async () => {
    const plain = routesOf(catalog());
    const defaults = await Promise.all(OPERATION_NAMES.map((op) => answerOf(plain, `/api/g1/${op}`)));
    const routes = routesOf(catalog());
    const cold = await every(routes);
    const warm = await every(routes);
    expect(warm).toEqual(cold);
    cold.forEach((answer, i) => {
      const name = names[Math.floor(i / OPERATION_NAMES.length)]!;
      const expected = defaults[i % OPERATION_NAMES.length]!;
      expect(answer).toEqual({ ...expected, scenario: name });
    });
    // A fresh catalog and routes (everything cold) give the same again.
    expect(await every(routesOf(catalog()))).toEqual(cold);
  });

  it('gives a prefixed request and a plain one to the active scenario the same answer', async () => {
    const routes = routesOf(catalog());
    const plain = await Promise.all(
      OPERATION_NAMES.map((op) => answerOf(routes, `/api/g1/${op}`, 'http://10.0.2.2:8787')),
    );
    const prefixed = await Promise.all(
      OPERATION_NAMES.map((op) => answerOf(routes, `/scenarios/default/api/g1/${op}`, 'http://10.0.2.2:8787')),
    );
    expect(prefixed).toEqual(plain);
    expect(plain.filter((answer) => answer.body.includes('http://10.0.2.2:8787')).length).toBeGreaterThan(0);
  });
});

describe('sequences per client through the routes (issue 18)', () => {
  const routes = createRoutes({
    scenarios: { responder: new ScenarioResponder(shippedCatalog()), activeScenario: () => 'settings-twice' },
  });
  const step = async (query: string, address?: string) => {
    const plan = await routes({
      method: 'GET',
      path: '/api/g1/meta/setting',
      query,
      origin: 'http://x',
      headers: {},
      ...(address ? { address } : {}),
    });
    return plan.kind === 'answer' ? plan.step : plan.kind;
  };

  it('names the client by _sdevid, else _anoyid, else the connection address, else one shared client', async () => {
    expect([await step('_sdevid=a'), await step('_sdevid=b'), await step('_sdevid=a')]).toEqual(['1/2', '1/2', '2/2']);
    expect([await step('_anoyid=u'), await step('_anoyid=u')]).toEqual(['1/2', '2/2']);
    // The address names a client only when the query names none (the Node host gives it; msw cannot).
    expect([
      await step('', '10.0.2.15'),
      await step('', '10.0.2.16'),
      await step('', '10.0.2.15'),
      await step('_sdevid=c', '10.0.2.15'),
    ]).toEqual(['1/2', '1/2', '2/2', '1/2']);
    expect([await step(''), await step('')]).toEqual(['1/2', '2/2']);
  });
});

describe('a stub condition (when.query), read from the decoded query the findings read', () => {
  const parsed = parseScenario(
    'when-decoded',
    {
      extends: 'default',
      operations: {
        ad_config: [
          { when: { query: { _model: 'Redmi Note 12+' } }, data: { stub: '1' } },
          { when: { query: { ref: 'app' } }, data: { stub: '2' } },
          { data: { stub: '3' } },
        ],
      },
    },
    'when-decoded.json',
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const routes = createRoutes({
    scenarios: {
      responder: new ScenarioResponder(buildCatalog([...shippedScenarios(), parsed.scenario])),
      activeScenario: () => 'when-decoded',
    },
  });
  const stubOf = async (query: string) => {
    const plan = await routes({ method: 'GET', path: '/api/g1/ad_config', query, origin: 'http://h', headers: {} });
    if (plan.kind !== 'answer') throw new Error(plan.kind);
    return JSON.parse(bodyText(plan.answer)).data.stub;
  };

  it.each([
    ['_model=Redmi%20Note%2012%2B', '1'],
    ['_model=Redmi+Note+12%2B', '1'],
    ['_model=Redmi%20Note%2012+', '3'],
    ['ref=&ref=app', '2'],
    ['ref=app%zz', '3'],
    ['', '3'],
  ])('%s → stub %s', async (query, expected) => {
    expect(await stubOf(query)).toBe(expected);
  });
});
