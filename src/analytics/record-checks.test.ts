import { describe, expect, it } from 'vitest';
import { COMMON_FIELDS, KIND_FIELDS as extras, commonFields } from '../../test/support/analytics-records.js';
import { checkAnalyticsRecord } from './record-checks.js';

const common = commonFields('x');
/** The findings listed per record: docs/security.md ("Findings listed per analytics record"), docs/devices.md. */
const MAX_FINDINGS_PER_RECORD = 24;

const rules = (record: unknown) => checkAnalyticsRecord(record).map((f) => `${f.field}:${f.rule}`);

describe('checkAnalyticsRecord', () => {
  it.each(Object.keys(extras))('accepts a complete %s record', (type) => {
    expect(checkAnalyticsRecord({ ...common, type, ...extras[type] })).toEqual([]);
  });

  it('accepts the later event/module/append shape', () => {
    expect(
      checkAnalyticsRecord({
        ...common,
        event: 'auto_login',
        module: 'account',
        append: '{"result":"success"}',
        st: 'x',
        _page: 'home',
      }),
    ).toEqual([]);
  });

  it('names each missing common and extra field', () => {
    const { _device: _d, ...rest } = common;
    expect(rules({ ...rest, type: 'page_view', page_name: 'p' })).toEqual([
      '_device:required',
      'package_from:required',
    ]);
  });

  it('finds an unknown type, a record of neither shape, non-string values and a non-object', () => {
    expect(rules({ ...common, type: 'swipe' })).toEqual(['type:known-type']);
    expect(rules({ ...common })).toEqual(['type:kind']);
    expect(rules({ ...common, type: 'login_state_on_launch', result: 1 })).toEqual(['result:string']);
    expect(rules('hello')).toEqual([':object']);
  });

  it('checks values: at in milliseconds, target a deep link, duration in seconds, append a JSON text', () => {
    expect(rules({ ...common, type: 'click', target: 'not a link', at: '1795322072' })).toEqual([
      'target:deep-link',
      'at:milliseconds',
    ]);
    expect(rules({ ...common, type: 'play__start_succ', ...extras.play__start_succ, duration: '1.5' })).toEqual([
      'duration:seconds',
    ]);
    expect(
      rules({ ...common, event: 'auto_login', module: 'account', append: '{result', st: 'x', _page: 'p' }),
    ).toEqual(['append:json-text']);
  });
});

describe('checkAnalyticsRecord is bounded (issue 39, H3)', () => {
  it('lists at most 24 findings, then counts the rest; names and values are cut', () => {
    const record = Object.fromEntries([
      ['n'.repeat(5000), { nested: 'x'.repeat(5000) }],
      ...Array.from({ length: 900 }, (_, i) => [`f${i}`, i]),
    ]);
    const findings = checkAnalyticsRecord(record);
    expect(findings).toHaveLength(MAX_FINDINGS_PER_RECORD + 1);
    expect(findings.at(-1)).toEqual({
      field: '',
      rule: 'more',
      message: `${901 + 18 - MAX_FINDINGS_PER_RECORD} more findings not listed (at most ${MAX_FINDINGS_PER_RECORD} per record)`,
    });
    expect(findings[0]!.field).toBe(`${'n'.repeat(80)}…`);
    expect(Math.max(...findings.map((f) => f.message.length))).toBeLessThan(300);
  });

  it('lists every finding of a record missing all its fields', () => {
    expect(rules({}).every((rule) => !rule.endsWith(':more'))).toBe(true);
    expect(rules({})).toHaveLength(COMMON_FIELDS.length + 1);
  });
});
