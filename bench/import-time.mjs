// What `import('mockvideo')` costs a test file under Node on top of msw (issue 31): each of
// BENCH_IMPORT_RUNS fresh processes (10) times one dynamic import of its entry, msw's
// (`msw` and `msw/node`, what a test's setup imports) alone or msw's followed by mockvideo's
// (`mockvideo`, resolved through the package's exports as a user's import is), alternating the two
// kinds; it prints both medians and their difference (the target: ≤ 30 ms). Run after
// `npm run build`: `node bench/import-time.mjs`; `bench/run.mjs` runs it too. `importTime()`
// returns the figures for a caller.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One fresh process's milliseconds to import msw and msw/node, then (`withMockvideo`) mockvideo too. */
function once(withMockvideo) {
  const script = [
    `const start = performance.now();`,
    `await import('msw'); await import('msw/node');`,
    withMockvideo ? `await import('mockvideo');` : '',
    `process.stdout.write(String(performance.now() - start));`,
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
  return Number(run.stdout);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `{ msw, mockvideo, added }`: median milliseconds of `runs` fresh processes each (msw alone; msw then mockvideo; the difference). */
export function importTime(runs = Number(process.env.BENCH_IMPORT_RUNS ?? 10)) {
  const alone = [];
  const both = [];
  for (let i = 0; i < runs; i++) {
    alone.push(once(false));
    both.push(once(true));
  }
  const msw = median(alone);
  const mockvideo = median(both);
  return { msw, mockvideo, added: mockvideo - msw };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { msw, mockvideo, added } = importTime();
  console.log(
    `import time (median of ${process.env.BENCH_IMPORT_RUNS ?? 10} fresh processes, ${process.version}): msw ${msw.toFixed(1)} ms; msw + mockvideo ${mockvideo.toFixed(1)} ms; mockvideo adds ${added.toFixed(1)} ms (target ≤ 30 ms)`,
  );
}
