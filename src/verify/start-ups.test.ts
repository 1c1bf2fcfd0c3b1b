import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/index.js';
import { startUpVerdicts } from './start-ups.js';

let id = 0;
function entry(ms: number, operation: string, device: string, query: Record<string, string[]> = {}): JournalEntry {
  return {
    id: ++id,
    time: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(),
    operation,
    query: { _sdevid: [device], ...query },
    scenario: 'default',
    status: 200,
    durationMs: 10,
    findings: [],
    match: null,
    fault: null,
  };
}
const startUp = (at: number, device: string, diversion: Record<string, string[]> = { is_from_gallery: ['true'] }) =>
  ['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'].map((op, i) =>
    entry(at + i * 20, op, device, op === 'localplay/diversion' ? diversion : {}),
  );

describe('startUpVerdicts', () => {
  it("judges each device's start-up on its own: interleaved start-ups of two devices, one broken", () => {
    const a = startUp(0, 'a'.repeat(64), {});
    const b = startUp(5, 'b'.repeat(64));
    const verdicts = startUpVerdicts([...a, ...b].sort((x, y) => x.time.localeCompare(y.time)));
    expect(verdicts.map((v) => [v.device[0], v.ok, v.ids.length])).toEqual([
      ['a', false, 6],
      ['b', true, 6],
    ]);
    expect(verdicts[0]!.rules.filter((r) => !r.ok).map((r) => r.rule)).toEqual(['diversion-carries-is_from_gallery']);
    // From the first arrival to the end of the last answer, in milliseconds.
    expect(verdicts[1]!.end - verdicts[1]!.start).toBe(5 * 20 + 10);
  });

  it('judges a later recommendation view on what came before it, the contract and the answers', () => {
    const verdicts = startUpVerdicts([
      ...startUp(0, 'a'.repeat(64)),
      entry(60_000, 'localplay/recomm', 'a'.repeat(64)),
    ]);
    expect(verdicts.map((v) => [v.startUp, v.ok, v.rules.map((r) => r.rule)])).toEqual([
      [true, true, expect.arrayContaining(['start-up-calls-each-operation-once'])],
      [false, true, ['recommendations-after-start-up', 'requests-keep-the-contract', 'requests-answered']],
    ]);
  });

  it("fails a recommendation view with no start-up of its device before it (another device's does not count)", () => {
    const verdicts = startUpVerdicts([...startUp(0, 'a'.repeat(64)), entry(50, 'localplay/recomm', 'b'.repeat(64))]);
    expect(verdicts.map((v) => [v.device[0], v.startUp, v.rules.filter((r) => !r.ok).map((r) => r.rule)])).toEqual([
      ['a', true, []],
      ['b', false, ['recommendations-after-start-up']],
    ]);
  });
});
