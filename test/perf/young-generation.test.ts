import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HELD_YOUNG_GENERATION_BYTES } from '../../src/cli/heap.js';
import { startCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';

const HEAP = new URL('../../dist/cli/heap.js', import.meta.url).href;

/**
 * Runs a fresh Node process that allocates as a server under load does (objects that live a while:
 * a ring of 4,000, refilled in rounds, yielding to the event loop between rounds) and returns the
 * largest size its new space reached, in MiB. `setup`: what it does first (`hold`: calls
 * `holdYoungGeneration()`; `frozen-then-hold`: growth factor 1 first, as a process left by the former
 * policy or shrunk while idle; `none`: nothing, V8's default).
 */
function largestNewSpaceMiB(setup: 'none' | 'hold' | 'frozen-then-hold'): number {
  const script = `
    import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
    import { setImmediate as nextTurn } from 'node:timers/promises';
    const setup = ${JSON.stringify(setup)};
    if (setup === 'frozen-then-hold') setFlagsFromString('--semi-space-growth-factor=1');
    if (setup !== 'none') (await import(${JSON.stringify(HEAP)})).holdYoungGeneration();
    const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    let largest = newSpace();
    const ring = new Array(4000);
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < ring.length; i++) ring[i] = { round, name: 'item ' + i, values: new Array(8).fill(i) };
      await nextTurn();
      largest = Math.max(largest, newSpace());
    }
    process.stdout.write(String(largest / 1048576));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('holdYoungGeneration (serve and replay)', () => {
  const heldMiB = HELD_YOUNG_GENERATION_BYTES / 1048576;

  it('without it, the same allocations grow the young generation past the held size (the workload makes V8 grow it)', () => {
    expect(largestNewSpaceMiB('none')).toBeGreaterThan(heldMiB);
  });

  it('grows the young generation to the held size and no further', () => {
    expect(largestNewSpaceMiB('hold')).toBe(heldMiB);
  });

  it('grows it back to the held size when growth had been stopped (growth factor 1) below it', () => {
    expect(largestNewSpaceMiB('frozen-then-hold')).toBe(heldMiB);
  });
});

/**
 * The V8 flags `mockvideo ARGS` sets at run time, in order, once it listens: a module loaded first
 * (`--import`) wraps `v8.setFlagsFromString` and writes each call to a file.
 */
async function flagsSetBy(args: string[]): Promise<string[]> {
  const dir = tempDir('mockvideo-heap-flags-');
  const log = join(dir, 'flags.txt');
  const wrap = join(dir, 'wrap.mjs');
  writeFileSync(log, '');
  writeFileSync(
    wrap,
    [
      `import { appendFileSync } from 'node:fs'; import { syncBuiltinESMExports } from 'node:module'; import v8 from 'node:v8';`,
      `const set = v8.setFlagsFromString; v8.setFlagsFromString = (flags) => { appendFileSync(${JSON.stringify(log)}, flags + '\\n'); set(flags); };`,
      `syncBuiltinESMExports();`,
    ].join('\n'),
  );
  const cli = await startCli([...args, '--port', '0'], { env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(wrap).href}`.trim() } });
  try {
    expect((await fetch(`${cli.url}/api/g1/meta/setting`)).status).toBeLessThan(500);
  } finally {
    await cli.stop();
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('serve and replay hold the young generation', () => {
  afterAll(removeTempDirs);

  /** The heap kept small, then the young generation let grow (to the held size); later calls only steer its growth. */
  const expectHeld = (flags: string[]) => {
    expect(flags.slice(0, 2)).toEqual(['--heap-growing-percent=10', '--semi-space-growth-factor=2']);
    for (const later of flags.slice(2)) expect(later).toMatch(/^--semi-space-growth-factor=[12]$/);
  };

  it('serve', async () => {
    expectHeld(await flagsSetBy(['serve']));
  });

  it('replay', async () => {
    expectHeld(await flagsSetBy(['replay', tempDir()]));
  });
});
