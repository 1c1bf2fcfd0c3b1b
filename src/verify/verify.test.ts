import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/index.js';
import { verifyJournal } from './verify.js';

let id = 0;
function entry(
  seconds: number,
  operation: string,
  query: Record<string, string[]> = {},
  device = 'a'.repeat(64),
): JournalEntry {
  return {
    id: ++id,
    time: new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString(),
    operation,
    query: { _sdevid: [device], ...query },
    scenario: 'default',
    status: 200,
    durationMs: 1,
    findings: [],
    match: null,
    fault: null,
  };
}
const startUp = (at: number, device?: string) => [
  entry(at, 'ad_config', {}, device),
  entry(at, 'meta/cp', {}, device),
  entry(at, 'meta/setting', {}, device),
  entry(at + 0.2, 'meta/setting', {}, device),
  entry(at, 'meta/plugin', {}, device),
  entry(at, 'localplay/diversion', { is_from_gallery: ['true'] }, device),
  entry(at + 0.5, 'localplay/recomm', {}, device),
];
const failed = (entries: JournalEntry[]) =>
  verifyJournal(entries)
    .rules.filter((r) => !r.ok)
    .map((r) => r.rule);

describe('verifyJournal', () => {
  it('passes a correct start-up and a later recommendation view', () => {
    expect(verifyJournal([...startUp(0), entry(60, 'localplay/recomm')]).ok).toBe(true);
  });

  it('fails an empty journal', () => {
    expect(failed([])).toEqual(['start-up-seen']);
  });

  it('fails a start-up that calls an operation twice or not at all, naming it', () => {
    const entries = [...startUp(0).filter((e) => e.operation !== 'meta/plugin'), entry(1, 'meta/cp')];
    const report = verifyJournal(entries);
    expect(failed(entries)).toEqual(['start-up-calls-each-operation-once']);
    expect(report.rules[1]!.message).toMatch(/meta\/cp ×2, meta\/plugin ×0/);
  });

  it('allows meta/setting twice but not three times', () => {
    expect(failed([...startUp(0), entry(1, 'meta/setting')])).toEqual(['start-up-calls-each-operation-once']);
  });

  it('fails a diversion without is_from_gallery', () => {
    const entries = startUp(0).map((e) =>
      e.operation === 'localplay/diversion' ? { ...e, query: { _sdevid: e.query._sdevid! } } : e,
    );
    expect(failed(entries)).toEqual(['diversion-carries-is_from_gallery']);
  });

  it('fails recommendations fetched by a device that never started playback', () => {
    expect(failed([...startUp(0), entry(30, 'localplay/recomm', {}, 'b'.repeat(64))])).toEqual([
      'recommendations-after-start-up',
    ]);
  });

  it('keeps the start-ups of two devices apart', () => {
    expect(verifyJournal([...startUp(0, 'a'.repeat(64)), ...startUp(0.1, 'b'.repeat(64))]).ok).toBe(true);
  });

  it('fails requests with contract findings', () => {
    const entries = startUp(0);
    entries[0]!.findings = [
      { parameter: '_region', rule: 'format', message: '_region must be two upper-case letters' },
    ];
    expect(failed(entries)).toEqual(['requests-keep-the-contract']);
  });
});
