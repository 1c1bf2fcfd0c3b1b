// What `import('mockvideo')` costs a test file under Node on top of msw (issue 31): each of
// BENCH_IMPORT_RUNS fresh processes (10) times one dynamic import of its entry, msw's
// (`msw` and `msw/node`, what a test's setup imports) alone or msw's followed by mockvideo's
// (`mockvideo`, resolved through the package's exports as a user's import is: dist/lib/, the
// bundle of scripts/bundle-lib.mjs), alternating the two kinds; it prints both medians and their
// difference (the target: ≤ 30 ms on Node 24 + msw 3, issue 43), of wall time and of the process's
// CPU time. Run after `npm run build`: `node bench/import-time.mjs` (with Node 24's binary first on
// PATH for Node 24); `bench/run.mjs` and both legs of `.ci/run` run it too. `importTime()` returns
// the figures for a caller.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One fresh process's `[wall, cpu]` milliseconds to import msw and msw/node, then (`withMockvideo`) mockvideo too. */
function once(withMockvideo) {
  const script = [
    `const start = performance.now(); const cpu = process.cpuUsage();`,
    `await import('msw'); await import('msw/node');`,
    withMockvideo ? `await import('mockvideo');` : '',
    `const used = process.cpuUsage(cpu); process.stdout.write(JSON.stringify([performance.now() - start, (used.user + used.system) / 1000]));`,
  ].join('\n');
  // Resolved from the package root, so `mockvideo` is this package (its own exports map) and msw its dev dependency.
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0)
    throw new Error(
      `import-time: the import failed: ${run.stderr.trim().split('\n').at(-1)}. Run "npm run build" first.`,
    );
  return JSON.parse(run.stdout);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Median milliseconds of `runs` fresh processes each: `wall` (the import as a test file waits for it)
 * and `cpu` (user + system time of the process meanwhile: less moved by other processes on a busy
 * machine), each `{ msw, mockvideo, added }` (msw alone; msw then mockvideo; the difference).
 */
export function importTime(runs = Number(process.env.BENCH_IMPORT_RUNS ?? 10)) {
  const alone = [];
  const both = [];
  for (let i = 0; i < runs; i++) {
    alone.push(once(false));
    both.push(once(true));
  }
  const figures = (k) => {
    const msw = median(alone.map((r) => r[k]));
    const mockvideo = median(both.map((r) => r[k]));
    return { msw, mockvideo, added: mockvideo - msw };
  };
  return { wall: figures(0), cpu: figures(1) };
}

/** The bench's line for {@link importTime}'s figures. */
export function importTimeLine({ wall, cpu }, runs = Number(process.env.BENCH_IMPORT_RUNS ?? 10)) {
  const part = (f) =>
    `msw ${f.msw.toFixed(1)} ms, msw + mockvideo ${f.mockvideo.toFixed(1)} ms, mockvideo adds ${f.added.toFixed(1)} ms`;
  return `import time (median of ${runs} fresh processes each, Node ${process.version}): wall ${part(wall)} (target ≤ 30 ms); CPU ${part(cpu)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(importTimeLine(importTime()));
}
