import { describe, expect, it } from 'vitest';
import { ClientStates } from '../state/client-state.js';
import { BundleAnswers } from './answers.js';
import type { Bundle, BundleExchange } from './format.js';

const exchange = (operation: BundleExchange['operation'], body: string): BundleExchange => ({
  id: 1,
  time: '2026-11-27T02:00:00.000Z',
  atMs: 0,
  durationMs: 1,
  operation,
  request: { method: 'GET', path: `/api/g1/${operation}`, query: [['_region', 'IN']], headers: {} },
  answer: { status: 200, headers: {}, body },
  fault: null,
  delayMs: 0,
  scenario: null,
  match: null,
  findings: [],
});
const bundle = {
  exchanges: [exchange('meta/setting', 'first'), exchange('meta/cp', 'cp'), exchange('meta/setting', 'second')],
} as Bundle;
const body = (outcome: ReturnType<BundleAnswers['take']>) =>
  outcome.kind === 'exchange' ? outcome.exchange.answer!.body : outcome.report.error;

describe('BundleAnswers', () => {
  it("gives each device the bundle's exchanges of an operation in order, whatever its query says", () => {
    const answers = new BundleAnswers(bundle);
    const a = '_sdevid=aa&_region=IN';
    const b = '_sdevid=bb&_region=US&_model=Pixel';
    expect([answers.take('GET', 'meta/setting', a), answers.take('GET', 'meta/setting', b)].map(body)).toEqual([
      'first',
      'first',
    ]);
    expect(body(answers.take('GET', 'meta/setting', a))).toBe('second');
    expect(answers.take('GET', 'meta/setting', a)).toMatchObject({
      kind: 'miss',
      report: { error: expect.stringMatching(/^The bundle holds 2 meta\/setting requests .* this is its call 3\./) },
    });
    expect(answers.unused()).toEqual(['exchanges[1] meta/cp']);
  });

  it('explains an operation the bundle never called, and starts again after a state reset', () => {
    const state = new ClientStates();
    const answers = new BundleAnswers(bundle, { state });
    expect(answers.take('GET', 'ad_config', '_sdevid=aa')).toMatchObject({
      kind: 'miss',
      report: { operation: 'ad_config', error: expect.stringMatching(/^The bundle holds no ad_config request/) },
    });
    answers.take('GET', 'meta/cp', '_sdevid=aa');
    state.reset();
    expect(body(answers.take('GET', 'meta/cp', '_sdevid=aa'))).toBe('cp');
  });
});
