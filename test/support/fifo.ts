import { spawnSync } from 'node:child_process';

/** True when this machine has `mkfifo` (coreutils): Node itself cannot make a FIFO. */
export const canMakeFifo = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Makes a FIFO (a named pipe) at `path`: a "file" that a plain read waits on until something writes
 * to it, for ever when nothing does. Throws when `mkfifo` fails.
 */
export function makeFifo(path: string): void {
  const made = spawnSync('mkfifo', [path], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
}
