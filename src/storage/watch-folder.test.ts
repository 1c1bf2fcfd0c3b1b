import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolder, type FolderWatcher } from './watch-folder.js';

const dirs: string[] = [];
let watcher: FolderWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A watcher of a new folder (depth 1, `.json` files) and the count of settled changes it reported. */
function watched(): { dir: string; changes: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-watch-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'meta-cp'));
  let count = 0;
  watcher = watchFolder({
    dir,
    depth: 1,
    accepts: (file) => file.endsWith('.json'),
    onChange: () => void count++,
    debounceMs: 20,
  });
  return { dir, changes: () => count };
}

/** Waits until `changes()` passes `seen` (bounded: 3 s), then a little more so a burst has settled. */
async function changeAfter(changes: () => number, seen: number): Promise<number> {
  const deadline = Date.now() + 3000;
  while (changes() === seen) {
    if (Date.now() > deadline) throw new Error('no change reported within 3 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 60));
  return changes();
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, 250));

describe('watchFolder', () => {
  it('reports files added, changed and removed in the folders below, once per burst', async () => {
    const { dir, changes } = watched();
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'meta-cp', `${i}.json`), '{}');
    let seen = await changeAfter(changes, 0);
    expect(seen).toBe(1);
    writeFileSync(join(dir, 'meta-cp', '0.json'), '{"changed":true}');
    seen = await changeAfter(changes, seen);
    rmSync(join(dir, 'meta-cp', '1.json'));
    seen = await changeAfter(changes, seen);
    // An atomic write: a temporary name the caller does not accept, then a rename to one it does.
    writeFileSync(join(dir, 'meta-cp', '9.json.tmp123'), '{}');
    await quiet();
    expect(changes()).toBe(seen);
    renameSync(join(dir, 'meta-cp', '9.json.tmp123'), join(dir, 'meta-cp', '9.json'));
    await changeAfter(changes, seen);
  });

  it('watches folders created after it started, and counts a removed folder as a change', async () => {
    const { dir, changes } = watched();
    mkdirSync(join(dir, 'localplay-recomm'));
    let seen = await changeAfter(changes, 0);
    writeFileSync(join(dir, 'localplay-recomm', 'a.json'), '{}');
    seen = await changeAfter(changes, seen);
    rmSync(join(dir, 'localplay-recomm'), { recursive: true });
    seen = await changeAfter(changes, seen);
    // Deeper than `depth`: not watched.
    mkdirSync(join(dir, 'meta-cp', 'deeper'));
    writeFileSync(join(dir, 'meta-cp', 'deeper', 'b.json'), '{}');
    await quiet();
    expect(changes()).toBe(seen);
  });

  it('reports nothing for what exists at the start, nor after close()', async () => {
    const { dir, changes } = watched();
    await quiet();
    expect(changes()).toBe(0);
    await watcher!.close();
    writeFileSync(join(dir, 'meta-cp', 'late.json'), '{}');
    await quiet();
    expect(changes()).toBe(0);
  });
});
