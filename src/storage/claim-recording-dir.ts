import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { MockvideoError } from '../errors.js';
import { say } from '../stderr.js';
import { readFolderFileSync } from './folder-file.js';

/** The file next to the lock that names its owner: `{"pid": 1234, "host": "laptop"}`. */
const LOCK_OWNER_FILE = '.mockvideo.lock.owner';

/**
 * True when the process `pid` runs on this machine: a signal 0 reaches it (or it is someone else's:
 * `EPERM`) and, where `/proc` tells, it is not a zombie (`Z`) or dead (`X`). A process killed with
 * `kill -9` stays a zombie until its parent reaps it, yet signal 0 still reaches it: without the
 * state check, its lock would wait 10 s to go stale instead of being taken over at once.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // No /proc (macOS, Windows) or the process just went: signal 0 reached it, so trust that.
    return existsSync('/proc/self/stat') ? false : true;
  }
  // `PID (command) STATE ...`: the command may hold spaces and parentheses, the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** The owner of the lock on `dir` when it is a process of this machine that is gone, else `undefined`. */
function deadOwner(dir: string): number | undefined {
  try {
    const { text = '' } = readFolderFileSync(dir, join(dir, LOCK_OWNER_FILE), 'recording folder');
    const owner = JSON.parse(text) as { pid?: unknown; host?: unknown };
    if (typeof owner.pid !== 'number' || owner.host !== hostname() || owner.pid === process.pid) return undefined;
    return isAlive(owner.pid) ? undefined : owner.pid;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure mockvideo may record into `dir`, before the first request: creates it, writes and
 * removes a probe file, and takes a lock (proper-lockfile, whose lock goes stale only when its
 * mtime is 10 s old; it knows no process ids) so that a second `record` on the same folder is
 * refused instead of interleaving files. The lock's owner (pid and host name) is written next to it:
 * a lock whose owner process is gone (killed with `kill -9`) is taken over at once, with a line on
 * stderr saying so. Returns the function that releases the lock.
 *
 * A lock lost while recording (its folder removed or replaced) is reported on stderr, not thrown:
 * the process keeps answering clients. Releasing never throws: a lock that is gone, or a folder
 * that became read-only (`EROFS`), gives one line on stderr, so the end summary is always printed.
 *
 * @throws MockvideoError (`MV_USAGE`) naming the folder and the cause: not writable, or in use.
 */
export async function claimRecordingDir(dir: string): Promise<() => Promise<void>> {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.mockvideo-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot record into ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Choose a folder you can write to with --out.`,
    );
  }
  const { lock } = await import('proper-lockfile');
  const lockfilePath = join(dir, '.mockvideo.lock');
  // proper-lockfile's default for a lost lock throws from a timer, which would end the process.
  const onCompromised = (error: Error) =>
    say(
      `Lost the lock on ${dir} (${error.message}): was the folder removed? Recording goes on, but another recorder could now write into it.`,
    );
  const take = () => lock(dir, { lockfilePath, stale: 10_000, update: 2_000, realpath: false, onCompromised });
  const inUse = `${dir} is being recorded into by another mockvideo process. Stop it first, or record into another folder.`;
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const dead = deadOwner(dir);
    if (dead === undefined) throw new MockvideoError('MV_USAGE', inUse);
    rmSync(lockfilePath, { recursive: true, force: true });
    say(`Took over the lock on ${dir}: its owner, process ${dead}, is gone (it was stopped without releasing it).`);
    try {
      release = await take();
    } catch {
      throw new MockvideoError('MV_USAGE', inUse);
    }
  }
  try {
    writeFileSync(join(dir, LOCK_OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() }));
  } catch {
    // Without it, a stale lock is taken over after 10 s instead of at once.
  }
  return async () => {
    try {
      await release();
      rmSync(join(dir, LOCK_OWNER_FILE), { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Already lost, or its folder is gone or now a file: nothing is left to release.
      if (code === 'ERELEASED' || code === 'ENOENT' || code === 'ENOTDIR') return;
      say(
        `Could not release the lock on ${dir}: ${code ?? (error as Error).message}. The recordings written are whole; remove ${lockfilePath} if a later record refuses the folder.`,
      );
    }
  };
}
