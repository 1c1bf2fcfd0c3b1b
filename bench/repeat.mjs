// The "repeated in a second run the same day" check of `npm run bench` (issue 22): compares this
// run's targets and headline ratios with the previous full run's (bench/results/previous.json, the
// latest.json that this run replaces), when that run is from the same UTC day.

/** How far a ratio may move between two runs and still count as repeated: the noise the bench states (per-round spread up to ±35% in absolute figures; ratios inside one run are steadier, ±15%). */
export const RATIO_NOISE = 0.15;

/** The ratios compared between runs: name → [case, reference] of `results.load` (req/s), or a function of the results. */
const RATIOS = {
  'serve ÷ talkback req/s': (r) => r.load['serve-setting']?.rps / r.load['talkback-setting']?.rps,
  'serve ÷ talkback CPU per request': (r) => r.load['serve-setting']?.cpuUsPerRequest / r.load['talkback-setting']?.cpuUsPerRequest,
  'replay-10 ÷ talkback-10 req/s': (r) => r.load['replay-10']?.rps / r.load['talkback-10']?.rps,
  'serve-50 ÷ serve req/s': (r) => r.load['serve-50']?.rps / r.load.serve?.rps,
  'cold start serve ÷ talkback': (r) => r.coldStart.serve?.ms / r.coldStart['talkback-10']?.ms,
  'cold start replay-10 ÷ talkback': (r) => r.coldStart['replay-10']?.ms / r.coldStart['talkback-10']?.ms,
};

/**
 * Lines saying whether `current` repeats `previous` (both `npm run bench` results): targets met in
 * both, and each headline ratio within {@link RATIO_NOISE} of the previous one. Empty when there is
 * no previous run from the same UTC day (or either is a quick run).
 */
export function repeatLines(current, previous) {
  if (!previous || previous.quick || current.quick || previous.date.slice(0, 10) !== current.date.slice(0, 10)) return [];
  const lines = [`Repeat of the run of ${previous.date.slice(11, 16)} UTC (bench/results/previous.json):`];
  const before = new Map(previous.targets.map((t) => [t.name, t.met]));
  const both = current.targets.filter((t) => t.met && before.get(t.name)).length;
  lines.push(`  targets met in both runs: ${both} of ${current.targets.length}${current.targets.filter((t) => t.met !== before.get(t.name)).map((t) => `; ${t.name}: ${before.get(t.name) ? 'met' : 'not met'} before, ${t.met ? 'met' : 'not met'} now`).join('')}`);
  for (const [name, of] of Object.entries(RATIOS)) {
    const [a, b] = [of(previous), of(current)];
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    const change = b / a - 1;
    lines.push(`  ${Math.abs(change) <= RATIO_NOISE ? '✓ within noise' : '✗ moved      '}  ${name}: ${a.toFixed(2)} → ${b.toFixed(2)} (${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)}%)`);
  }
  return lines;
}
