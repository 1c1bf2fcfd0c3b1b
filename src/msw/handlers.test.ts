import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { minimalScenario } from '../../test/support/minimal-scenario.js';
import { buildCatalog, parseScenario, type ParsedScenario } from '../scenarios/index.js';
import { createHandlers, createScenarioHandlers } from './handlers.js';

function catalog() {
  const base = minimalScenario() as Record<string, any>;
  const settings = base.operations['meta/setting'].data;
  const twice = {
    extends: 'mini',
    operations: { 'meta/setting': { sequence: [{ data: settings }, { data: { ...settings, language_switch: 0 } }] } },
  };
  const parsed = [parseScenario('mini', base, 'mini.json'), parseScenario('twice', twice, 'twice.json')];
  return buildCatalog(parsed.map((r) => (r as { scenario: ParsedScenario }).scenario));
}

const get = (handlers: Parameters<typeof getResponse>[0], url: string, init?: RequestInit) =>
  getResponse(handlers, new Request(url, init));

describe('createScenarioHandlers', () => {
  it('answers the stored text, \\u0026 escapes and all', async () => {
    const handlers = createScenarioHandlers(catalog(), { activeScenario: () => 'mini' });
    const response = await get(handlers, 'https://api.example.com/api/g1/localplay/recomm?ref=&ref=x');
    const text = await response!.text();
    expect(text).toContain('action=playVideo\\u0026id=a');
    expect(response!.headers.get('x-mockvideo-scenario')).toBe('mini');
  });

  it('tries stubs in order and matches on the query', async () => {
    const handlers = createScenarioHandlers(catalog(), { activeScenario: () => 'mini' });
    const gallery = await (await get(
      handlers,
      'http://x/api/g1/localplay/diversion?ref=&is_from_gallery=true',
    ))!.json();
    const other = await (await get(handlers, 'http://x/api/g1/localplay/diversion?ref=&is_from_gallery=false'))!.json();
    expect(gallery.data.end).toHaveLength(2);
    expect(other.data.end).toHaveLength(0);
  });

  it('serves a sequence in order, then repeats the last', async () => {
    const handlers = createScenarioHandlers(catalog(), { activeScenario: () => 'twice' });
    const values = [];
    for (let i = 0; i < 3; i++)
      values.push((await (await get(handlers, 'http://x/api/g1/meta/setting'))!.json()).data.language_switch);
    expect(values).toEqual([1, 0, 0]);
  });

  it('picks the scenario from the header, then the path prefix, then the active one', async () => {
    const handlers = createScenarioHandlers(catalog(), { activeScenario: () => 'mini' });
    const byHeader = await get(handlers, 'http://x/api/g1/ad_config', { headers: { 'x-mockvideo-scenario': 'twice' } });
    const byPrefix = await get(handlers, 'http://x/scenarios/twice/api/g1/ad_config');
    const unknown = await get(handlers, 'http://x/scenarios/nope/api/g1/ad_config');
    expect(byHeader!.headers.get('x-mockvideo-scenario')).toBe('twice');
    expect(byPrefix!.headers.get('x-mockvideo-scenario')).toBe('twice');
    expect(unknown!.status).toBe(404);
    expect(await unknown!.json()).toEqual({
      error: 'Unknown scenario "nope".',
      code: 'MV_SCENARIO_UNKNOWN',
      scenarios: ['mini', 'twice'],
    });
    const typo = await get(handlers, 'http://x/scenarios/twise/api/g1/ad_config');
    expect((await typo!.json()).error).toBe('Unknown scenario "twise". Did you mean "twice"?');
  });

  it('matches only the given origin when baseUrl is set', async () => {
    const handlers = createScenarioHandlers(catalog(), {
      activeScenario: () => 'mini',
      baseUrl: 'https://api.example.com/',
    });
    expect(await get(handlers, 'https://api.example.com/api/g1/ad_config')).toBeDefined();
    expect(await get(handlers, 'https://other.example.com/api/g1/ad_config')).toBeUndefined();
  });

  it('explains when no stub matches', async () => {
    const value = minimalScenario() as Record<string, any>;
    value.operations['localplay/diversion'].pop();
    const only = buildCatalog([(parseScenario('strict', value, 's.json') as { scenario: ParsedScenario }).scenario]);
    const response = await get(
      createScenarioHandlers(only, { activeScenario: () => 'strict' }),
      'http://x/api/g1/localplay/diversion?is_from_gallery=false',
    );
    expect(response!.status).toBe(404);
    expect(await response!.json()).toMatchObject({ stubs: [{ when: { query: { is_from_gallery: 'true' } } }] });
  });
});

describe('createHandlers', () => {
  it('throws for an unknown scenario, listing the known ones', () => {
    expect(() => createHandlers({ scenario: 'nope', catalog: catalog() })).toThrow(
      'Unknown scenario "nope". Known scenarios: mini, twice.',
    );
  });

  it('suggests the closest shipped name for a misspelled one, as the CLI does (issue 43)', () => {
    // @ts-expect-error 'galery' is not a ScenarioName
    expect(() => createHandlers({ scenario: 'galery' })).toThrow(
      /^\[mockvideo\] Unknown scenario "galery"\. Known scenarios: default, .*\. Did you mean "gallery"\?$/,
    );
    expect(() => createHandlers({ scenario: 'twise', catalog: catalog() })).toThrow(
      'Unknown scenario "twise". Known scenarios: mini, twice. Did you mean "twice"?',
    );
  });

  it('takes a clock: "{now-2y}" in scenario data and the _ts check read it', async () => {
    const base = minimalScenario() as Record<string, any>;
    const plugins = structuredClone(base.operations['meta/plugin']);
    for (const entry of plugins.data) entry.updated_at = '{now-2y}';
    const aged = parseScenario('aged', { extends: 'mini', operations: { 'meta/plugin': plugins } }, 'aged.json') as {
      scenario: ParsedScenario;
    };
    const own = buildCatalog([
      (parseScenario('mini', base, 'mini.json') as { scenario: ParsedScenario }).scenario,
      aged.scenario,
    ]);
    const frozenSeconds = Date.parse('2026-01-31T12:00:00Z') / 1000;
    const handlers = createHandlers({ catalog: own, scenario: 'aged', clock: { frozen: '2026-01-31T12:00:00Z' } });
    const answer = await get(handlers, `http://x/api/g1/meta/plugin?_ts=${frozenSeconds}`);
    expect(((await answer!.json()).data as Array<{ updated_at: number }>).map((p) => p.updated_at)).toEqual(
      plugins.data.map(() => frozenSeconds - 2 * 365 * 86_400),
    );
    // _ts is checked against the frozen clock: a real-time _ts is years off from it, the frozen one is not.
    const findings = async (ts: number) =>
      (await get(handlers, `http://x/api/g1/meta/plugin?_ts=${ts}`))!.headers.get('x-mockvideo-findings');
    expect(Number(await findings(Math.floor(Date.now() / 1000)))).toBeGreaterThan(
      Number(await findings(frozenSeconds)),
    );
  });

  it('names what is wrong with a clock', () => {
    expect(() => createHandlers({ clock: { frozen: 'yesterday' } })).toThrow('"yesterday" is not a moment');
  });
});

describe('createHandlers with baseUrl', () => {
  it('answers its origin only, and refuses a baseUrl that is no absolute URL with a message naming it', async () => {
    const handlers = createHandlers({ baseUrl: 'https://api.example.com/' });
    expect((await get(handlers, 'https://api.example.com/api/g1/meta/cp?ref='))?.status).toBe(200);
    expect(await get(handlers, 'https://staging.example.com/api/g1/meta/cp?ref=')).toBeUndefined();
    expect(() => createHandlers({ baseUrl: 'api.example.com' })).toThrow(
      /baseUrl "api\.example\.com" is no absolute URL.*https:\/\/api\.example\.com/,
    );
  });
});

describe('createHandlers with faults (issue 43)', () => {
  const device = (id: string) => `_sdevid=${id.repeat(64)}`;

  it('takes a fault for a number of requests per device (times), then answers the scenario', async () => {
    const handlers = createHandlers({
      scenario: 'gallery',
      faults: [{ operation: 'meta/setting', kind: 'status', status: 503, times: 1 }],
    });
    const statuses = async (id: string) => (await get(handlers, `http://x/api/g1/meta/setting?${device(id)}`))!.status;
    expect([await statuses('a'), await statuses('a'), await statuses('b'), await statuses('b')]).toEqual([
      503, 200, 503, 200,
    ]);
    // Other operations are not touched.
    expect((await get(handlers, 'http://x/api/g1/meta/cp?ref='))!.status).toBe(200);
  });

  it('takes a fault aimed at one device (@SDEVID, "device"): only its requests get it', async () => {
    const handlers = createHandlers({
      faults: [`meta/cp=status:503@${'a'.repeat(64)}`, { kind: 'status', status: 502, device: 'b'.repeat(64) }],
    });
    const status = async (id: string, operation = 'meta/cp') =>
      (await get(handlers, `http://x/api/g1/${operation}?ref=&${device(id)}`))!.status;
    expect([await status('a'), await status('b'), await status('c'), await status('a', 'meta/setting')]).toEqual([
      503, 502, 200, 200,
    ]);
  });

  it('takes --fault flags: a reset is a network error, a fault for every operation applies to each', async () => {
    const reset = createHandlers({ faults: ['localplay/recomm=reset', 'envelope:-3'] });
    expect((await get(reset, 'http://x/api/g1/localplay/recomm?ref='))!.type).toBe('error');
    const answer = await get(reset, 'http://x/api/g1/ad_config?ref=');
    expect([answer!.status, answer!.headers.get('x-mockvideo-fault'), (await answer!.json()).result]).toEqual([
      200,
      'envelope',
      -3,
    ]);
  });

  it('adds a fault for one request list in front of the others (server.use), leaving the others as they were', async () => {
    const initial = createHandlers({ scenario: 'gallery' });
    const withFault = [...createHandlers({ scenario: 'gallery', faults: ['meta/cp=status:502'] }), ...initial];
    expect((await get(withFault, 'http://x/api/g1/meta/cp?ref='))!.status).toBe(502);
    expect((await get(initial, 'http://x/api/g1/meta/cp?ref='))!.status).toBe(200);
  });

  it('holds a request under hang until the client gives up', async () => {
    const abort = new AbortController();
    const answer = get(createHandlers({ faults: ['ad_config=hang'] }), 'http://x/api/g1/ad_config?ref=', {
      signal: abort.signal,
    });
    const settled = await Promise.race([
      answer.then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('held'), 300)),
    ]);
    expect(settled).toBe('held');
    abort.abort();
    await answer.catch(() => undefined);
  });

  it('names the fault that is wrong, as --fault does', () => {
    expect(() => createHandlers({ faults: ['reset', 'meta/setting=status:700'] })).toThrow(
      /^\[mockvideo\] faults\[1\]: --fault meta\/setting=status:700: Invalid fault: "status": must be <= 599\. Form: \[OPERATION=\]KIND\[:ARG\]/,
    );
    // @ts-expect-error times is a number of requests
    expect(() => createHandlers({ faults: [{ kind: 'reset', times: 'once' }] })).toThrow(
      /^\[mockvideo\] faults\[0\]: "times" must be an integer from 1 to 100000, got "once"\.$/,
    );
  });
});
