import { describe, expect, it } from 'vitest';
import { minimalScenario } from '../../test/support/minimal-scenario.js';
import { parseScenario, parseScenarioText } from './parse.js';

describe('parseScenario', () => {
  it('parses a valid scenario', () => {
    const result = parseScenario('mini', minimalScenario(), 'mini.json');
    expect(result.ok).toBe(true);
  });

  it('names the JSON path and the rule of a contract violation', () => {
    const value = minimalScenario();
    (value.operations['localplay/diversion'][0]!.data.end[1] as { duration: unknown }).duration = '2 min';
    const result = parseScenario('mini', value, 'mini.json');
    expect(result).toMatchObject({
      ok: false,
      problems: [{ source: 'mini.json', path: 'operations["localplay/diversion"][0].data.end[1].duration' }],
    });
    expect(!result.ok && result.problems[0]!.message).toMatch(/expected number/);
  });

  it('reports every problem, not only the first', () => {
    const value = minimalScenario() as Record<string, any>;
    value.operations['meta/setting'].data.codec_level = 3;
    value.operations['meta/plugin'].data[0].md5 = 'ABC';
    value.operations['meta/nope'] = { data: {} };
    value.colour = 'blue';
    const result = parseScenario('mini', value, 'mini.json');
    expect(result.ok).toBe(false);
    // The unknown top-level key stops the file at the top level.
    expect(!result.ok && result.problems.map((p) => p.message).join()).toMatch(/colour/);
    delete value.colour;
    const again = parseScenario('mini', value, 'mini.json');
    expect(!again.ok && again.problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        'operations["meta/setting"].data.codec_level',
        'operations["meta/plugin"].data[0].md5',
        'operations["meta/nope"]',
      ]),
    );
  });

  it('refuses framing headers in a stub: replay or serve would send Content-Length beside Transfer-Encoding (issue 34)', () => {
    const value = minimalScenario() as Record<string, any>;
    value.operations['meta/cp'].headers = { 'Transfer-Encoding': 'chunked', 'x-fine': 'yes' };
    value.operations['meta/setting'].headers = { 'content-length': '3' };
    const result = parseScenario('mini', value, 'mini.json');
    expect(result.ok).toBe(false);
    const problems = !result.ok ? result.problems : [];
    expect(problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        'operations["meta/cp"].headers["Transfer-Encoding"]',
        'operations["meta/setting"].headers["content-length"]',
      ]),
    );
    expect(problems.map((p) => p.message).join()).toMatch(/frames the body itself/);
  });

  it('checks each response of a sequence', () => {
    const value = minimalScenario() as Record<string, any>;
    const settings = value.operations['meta/setting'].data;
    value.operations['meta/setting'] = {
      sequence: [{ data: settings }, { data: { ...settings, language_switch: 'x' } }],
    };
    const result = parseScenario('mini', value, 'mini.json');
    expect(!result.ok && result.problems[0]!.path).toBe('operations["meta/setting"].sequence[1].data.language_switch');
  });

  it.each([
    ['a status that cannot carry a body', { status: 204 }, 'operations.ad_config.status', /204, 205 or 304/],
    ['a 1xx status', { status: 101 }, 'operations.ad_config.status', />=200/],
    [
      'a header name that is not an HTTP token',
      { headers: { 'X Bad': '1' } },
      'operations.ad_config.headers["X Bad"]',
      /HTTP token/,
    ],
    [
      'a header value with a line break',
      { headers: { 'x-a': 'one\r\nx-b: two' } },
      'operations.ad_config.headers["x-a"]',
      /line breaks/,
    ],
    [
      'a status fault that cannot carry a body',
      { fault: { kind: 'status', status: 304 } },
      'operations.ad_config.fault.status',
      /204, 205 or 304/,
    ],
  ])('refuses %s, naming its path', (_what, change, path, message) => {
    const value = minimalScenario() as Record<string, any>;
    Object.assign(value.operations.ad_config, change);
    const result = parseScenario('mini', value, 'mini.json');
    expect(result.ok).toBe(false);
    const problem = !result.ok ? result.problems.find((p) => p.path === path) : undefined;
    expect(problem?.message, JSON.stringify(!result.ok && result.problems)).toMatch(message);
  });
});

describe('parseScenarioText', () => {
  it('gives the line and column of invalid JSON', () => {
    const result = parseScenarioText('x', '{\n  "operations": {,\n}', 'x.json');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]!.message).toMatch(/^invalid JSON \(line 2, column \d+\)/);
  });
});
