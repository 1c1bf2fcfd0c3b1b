import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the bench, without types
import { repeatLines } from '../../bench/repeat.mjs';

/** A bench result with serve and talkback at the given req/s, and the targets given as [name, met]. */
function run(date: string, serveRps: number, targets: Array<[string, boolean]>) {
  return {
    date,
    quick: false,
    load: { 'serve-setting': { rps: serveRps, cpuUsPerRequest: 20 }, 'talkback-setting': { rps: 20_000, cpuUsPerRequest: 40 } },
    coldStart: {},
    targets: targets.map(([name, met]) => ({ name, met })),
  };
}

describe('repeatLines (bench/repeat.mjs)', () => {
  it('compares with a run of the same day: targets met in both, ratios within the noise or moved', () => {
    const lines: string[] = repeatLines(run('2026-11-24T02:10:00Z', 60_000, [['a', true], ['b', true]]), run('2026-11-24T01:50:00Z', 40_000, [['a', true], ['b', false]]));
    expect(lines[0]).toBe('Repeat of the run of 01:50 UTC (bench/results/previous.json):');
    expect(lines[1]).toBe('  targets met in both runs: 1 of 2; b: not met before, met now');
    expect(lines).toContain('  ✗ moved        serve ÷ talkback req/s: 2.00 → 3.00 (+50%)');
    expect(lines).toContain('  ✓ within noise  serve ÷ talkback CPU per request: 0.50 → 0.50 (+0%)');
  });

  it('says nothing without a previous run of the same day, or for a quick run', () => {
    const now = run('2026-11-24T02:10:00Z', 40_000, []);
    expect(repeatLines(now, null)).toEqual([]);
    expect(repeatLines(now, run('2026-11-23T23:25:00Z', 40_000, []))).toEqual([]);
    expect(repeatLines({ ...now, quick: true }, run('2026-11-24T01:00:00Z', 40_000, []))).toEqual([]);
  });
});
