import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/index.js';
import { failedCases, verdictSuites } from './verdicts.js';
import { FAIL_ON, type FailOn } from './fail-on.js';
import { formatReport, verifyJournal } from './verify.js';

let id = 0;
function entry(ms: number, operation: string, device: string, extra: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: ++id,
    time: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(),
    operation,
    query: { _sdevid: [device], ...(operation === 'localplay/diversion' ? { is_from_gallery: ['true'] } : {}) },
    scenario: 'default',
    status: 200,
    durationMs: 10,
    findings: [],
    match: null,
    fault: null,
    ...extra,
  };
}
const OPERATIONS = ['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'];
const startUp = (at: number, device: string) => OPERATIONS.map((op, i) => entry(at + i * 20, op, device));
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const names = (failOn: readonly FailOn[], entries: JournalEntry[]) =>
  failedCases(verdictSuites(entries), failOn).map((c) => c.name);

describe('verdictSuites', () => {
  it('gives the journal a suite, each device one, a case per start-up, recommendation view and operation', () => {
    const suites = verdictSuites([...startUp(0, A), entry(60_000, 'localplay/recomm', A)]);
    expect(suites.map((s) => [s.name, s.cases.length])).toEqual([
      ['journal', 1],
      [`device ${'a'.repeat(12)}…`, 8],
    ]);
    expect(suites[1]!.cases.slice(0, 3).map((c) => [c.name, c.problems.length, c.seconds])).toEqual([
      ['start-up 1', 0, 0.11],
      ['recommendation view 1', 0, 0.01],
      ['ad_config keeps the contract', 0, 0.01],
    ]);
  });

  it('fails a recommendation view of a device that never started playback', () => {
    const entries = [...startUp(0, A), entry(100, 'localplay/recomm', B)];
    expect(names(FAIL_ON, entries)).toEqual(['recommendation view 1']);
    expect(verdictSuites(entries)[2]!.cases[0]!.problems[0]!.rule).toBe('recommendations-after-start-up');
  });

  it('puts findings in the operation case, not the start-up case, and counts them only under findings', () => {
    const entries = startUp(0, A);
    entries[1]!.findings = [
      { parameter: '_region', rule: 'format', message: '_region must be two upper-case letters' },
    ];
    expect(names(FAIL_ON, entries)).toEqual(['meta/cp keeps the contract']);
    expect(names(['start-ups', 'unanswered'], entries)).toEqual([]);
  });

  it('counts a 404 no scenario answered under unanswered, in its start-up', () => {
    const entries = startUp(0, A);
    entries[2] = { ...entries[2]!, scenario: null, status: 404 };
    expect(names(['unanswered'], entries)).toEqual(['start-up 1']);
    expect(names(['start-ups', 'findings'], entries)).toEqual([]);
  });

  it('fails as the verify report does, for every choice of --fail-on', () => {
    const broken = startUp(0, B).filter((e) => e.operation !== 'meta/plugin');
    const finding = startUp(10_000, A);
    finding[0]!.findings = [{ parameter: '_ts', rule: 'ts-skew', message: 'far' }];
    const missed = startUp(20_000, 'c'.repeat(64)).map((e, i) => (i ? e : { ...e, scenario: null, status: 404 }));
    const journals = [[], startUp(0, A), broken, finding, missed, [...broken, ...finding, ...missed]];
    const choices: FailOn[][] = [[...FAIL_ON], ['start-ups'], ['findings'], ['unanswered'], ['findings', 'unanswered']];
    for (const journal of journals)
      for (const failOn of choices)
        expect(names(failOn, journal).length > 0, `${journal.length} entries, ${failOn.join(',')}`).toBe(
          formatReport(verifyJournal(journal), failOn).endsWith('\nFAIL\n'),
        );
  });
});
