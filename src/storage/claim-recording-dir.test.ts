import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimRecordingDir } from './claim-recording-dir.js';

/** A lock left as `kill -9` leaves it: the lock folder, fresh, and its owner file naming `pid`. */
function leftLock(pid: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lock-'));
  mkdirSync(join(dir, '.mockvideo.lock'));
  writeFileSync(join(dir, '.mockvideo.lock.owner'), JSON.stringify({ pid, host: hostname() }));
  return dir;
}

function stderrLines() {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('claimRecordingDir (issue 21.7)', () => {
  it('takes over at once a lock whose owner process is gone, saying so', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const dir = leftLock(Number(gone.stdout.toString()));
    const lines = stderrLines();
    const release = await claimRecordingDir(dir);
    expect(lines.join('')).toMatch(
      new RegExp(`Took over the lock on .*: its owner, process ${gone.stdout.toString()}, is gone`),
    );
    await release();
    expect(existsSync(join(dir, '.mockvideo.lock'))).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'takes over at once a lock whose owner was killed and is not yet reaped (a zombie)',
    async () => {
      // The background `sleep 0.2` exits after its shell became `sleep 30`, which never reaps it: a zombie that signal 0 still reaches.
      const parent = spawn('/bin/sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30']);
      try {
        const pid = Number(
          await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
        );
        // Wait until the kernel shows it as a zombie.
        const deadline = Date.now() + 5_000;
        const stateOf = () =>
          existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] : undefined;
        while (stateOf() !== 'Z' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(stateOf()).toBe('Z');
        const dir = leftLock(pid);
        const lines = stderrLines();
        const release = await claimRecordingDir(dir);
        expect(lines.join('')).toMatch(new RegExp(`Took over the lock on .*: its owner, process ${pid}, is gone`));
        await release();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('still refuses a folder whose lock owner is alive', async () => {
    const dir = leftLock(process.ppid);
    await expect(claimRecordingDir(dir)).rejects.toThrow(/is being recorded into by another mockvideo process/);
  });

  it('releasing never throws: a lock it cannot remove gives one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lock-'));
    const release = await claimRecordingDir(dir);
    writeFileSync(join(dir, '.mockvideo.lock', 'in-the-way'), '');
    const lines = stderrLines();
    await expect(release()).resolves.toBeUndefined();
    expect(lines.join('')).toMatch(/Could not release the lock on .*: ENOTEMPTY\. The recordings written are whole/);
  });
});
