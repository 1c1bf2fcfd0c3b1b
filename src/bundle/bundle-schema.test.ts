import { describe, expect, it } from 'vitest';
import { prefixed } from '../errors.js';
import { DEFAULT_POLICY } from '../normalise/index.js';
import { startUpVerdicts } from '../verify/start-ups.js';
import { parseBundle } from './bundle-schema.js';
import { buildBundle } from './build.js';

const exchange = {
  entry: {
    id: 1,
    time: '2026-11-27T02:00:00.000Z',
    operation: 'ad_config',
    query: {},
    scenario: 'default',
    status: 200,
    durationMs: 1,
    findings: [],
    match: null,
    fault: null,
  },
  method: 'GET',
  path: '/api/g1/ad_config',
  rawQuery: [],
  requestHeaders: {},
  responseHeaders: {},
  responseBody: '{}',
  answerBody: { body: '{}' },
};
const bundle = buildBundle({
  exchanges: [exchange],
  verdict: startUpVerdicts([exchange.entry])[0]!,
  quietGapSeconds: 5,
  policy: DEFAULT_POLICY,
  scenario: () => ({ description: '', extends: [] }),
  clock: { now: '2026-11-27T02:00:00.000Z', nowSeconds: 1795831200, mode: 'real', frozenAt: null, offsetMs: 0 },
  server: { mode: 'serve', activeScenario: 'default', state: 'client' },
});
const copy = () => JSON.parse(JSON.stringify(bundle));

describe('parseBundle', () => {
  it('gives back a bundle buildBundle made, as JSON text carries it', () => {
    expect(parseBundle(copy(), 'b.json')).toEqual(bundle);
  });

  it.each([
    [
      (b: any) => (b.exchanges[0].answer.status = '200'),
      'exchanges[0].answer.status: Invalid input: expected number, received string',
    ],
    [(b: any) => delete b.exchanges[0].answer.body, 'exchanges[0].answer: expected one of "body" and "bodyBase64"'],
    [(b: any) => (b.exchanges[0].fault = 'explode'), 'exchanges[0].fault: Invalid option'],
    [(b: any) => (b.exchanges = []), 'exchanges: expected at least one exchange'],
    [(b: any) => (b.format = 'mockvideo-bundle/2'), 'format: expected "mockvideo-bundle/1", got "mockvideo-bundle/2"'],
    [(b: any) => (b.format = 'har'), 'format: expected "mockvideo-bundle/1" (is this a start-up bundle?)'],
  ])('refuses a broken field in one line naming the file and the field (%#)', (breakIt, said) => {
    const value = copy();
    breakIt(value);
    let message = '';
    try {
      parseBundle(value, 'qa/start-up-7.json');
    } catch (error) {
      expect((error as { code?: string }).code).toBe('MV_BUNDLE_INVALID');
      message = (error as Error).message;
    }
    expect(message).toContain(prefixed(`Failed to load the bundle qa/start-up-7.json at ${said}`));
    expect(message).not.toContain('\n');
  });

  it('refuses what is no object, naming the file', () => {
    expect(() => parseBundle([], 'x.json')).toThrow(
      /^\[mockvideo\] Failed to load the bundle x\.json at format: expected a JSON object/,
    );
  });
});
