import { describe, expect, it } from 'vitest';
import type { JournalExchange } from '../journal/index.js';
import { DEFAULT_POLICY } from '../normalise/index.js';
import { startUpVerdicts } from '../verify/start-ups.js';
import { buildBundle, type BundleInput } from './build.js';

const DEVICE = 'ab12'.repeat(16);
const CLOCK = {
  now: '2026-11-27T02:00:00.000Z',
  nowSeconds: 1795831200,
  mode: 'real',
  frozenAt: null,
  offsetMs: 0,
} as const;

/** A journal exchange as the journal keeps it: the token already redacted, the device kept (for filtering). */
function kept(
  id: number,
  operation: string,
  seconds: number,
  more: Partial<JournalExchange['entry']> = {},
  body = '{}',
) {
  const rawQuery: Array<[string, string]> = [
    ['_sdevid', DEVICE],
    ['_st', '<SERVICE_TOKEN>'],
    ['_region', 'IN'],
  ];
  const exchange: JournalExchange = {
    entry: {
      id,
      time: new Date(Date.UTC(2026, 10, 27, 2, 0, seconds)).toISOString(),
      operation,
      query: { _sdevid: [DEVICE], _st: ['<SERVICE_TOKEN>'], _region: ['IN'] },
      scenario: 'gallery',
      status: 200,
      durationMs: 2,
      findings: [],
      match: null,
      fault: null,
      ...more,
    },
    method: 'GET',
    path: `/api/g1/${operation}`,
    rawQuery,
    requestHeaders: { 'user-agent': 'okhttp/4' },
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body,
    answerBody: { body },
  };
  return exchange;
}

function input(exchanges: JournalExchange[], verdictIndex = 0): BundleInput {
  return {
    exchanges,
    verdict: startUpVerdicts(exchanges.map((x) => x.entry))[verdictIndex]!,
    quietGapSeconds: 5,
    policy: DEFAULT_POLICY,
    scenario: (name) => (name === 'gallery' ? { description: 'Gallery', extends: ['default'] } : undefined),
    clock: CLOCK,
    server: { mode: 'serve', activeScenario: 'gallery', state: 'client' },
    now: new Date(Date.UTC(2026, 10, 27, 3)),
  };
}

describe('buildBundle', () => {
  it('redacts the device everywhere: the query, an echo in the answer, a finding quoting it, the verdict', () => {
    const finding = {
      parameter: '_sdevid',
      rule: 'format' as const,
      message: `_sdevid must be 64 hex, got "${DEVICE}"`,
    };
    const bundle = buildBundle(
      input([
        kept(1, 'ad_config', 0, { findings: [finding] }, `{"data":{"device":"${DEVICE}"},"msg":"OK","result":1}`),
        kept(2, 'meta/cp', 1),
      ]),
    );
    const text = JSON.stringify(bundle);
    expect(text).not.toContain(DEVICE);
    expect(text).not.toContain(DEVICE.slice(0, 12));
    expect(bundle.exchanges[0]!.answer!.body).toBe('{"data":{"device":"<REDACTED>"},"msg":"OK","result":1}');
    expect(bundle.exchanges[0]!.findings[0]!.message).toBe('_sdevid must be 64 hex, got "<REDACTED>"');
    expect(bundle.verdict).toMatchObject({ id: 1, device: '<REDACTED>', ids: [1, 2], ok: false });
    expect(bundle.scenarios).toEqual([{ name: 'gallery', description: 'Gallery', extends: ['default'] }]);
  });

  it('keeps a connection closed without an answer as no answer, with its fault and wait, and orders by arrival', () => {
    const bundle = buildBundle(
      input([kept(2, 'meta/setting', 1, { status: 0, fault: 'reset', delayMs: 250 }), kept(1, 'ad_config', 0)]),
    );
    expect(bundle.exchanges.map((x) => [x.id, x.atMs, x.answer === null, x.fault, x.delayMs])).toEqual([
      [1, 0, false, null, 0],
      [2, 1000, true, 'reset', 250],
    ]);
  });

  it("takes a recommendation view's rule from the server, which saw the start-up before it", () => {
    const all = [kept(1, 'ad_config', 0), kept(2, 'localplay/recomm', 30)];
    const bundle = buildBundle({ ...input(all, 1), exchanges: [all[1]!] });
    expect(bundle.verdict.startUp).toBe(false);
    expect(bundle.verdict.rules.find((r) => r.rule === 'recommendations-after-start-up')).toEqual({
      rule: 'recommendations-after-start-up',
      ok: true,
      message: 'a start-up of this device came before it',
    });
    expect(bundle.verdict.ok).toBe(true);
  });
});
