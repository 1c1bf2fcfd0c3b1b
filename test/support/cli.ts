import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI entry, as users run it. */
export const BIN = fileURLToPath(new URL('../../bin/mockvideo.js', import.meta.url));

/** A CLI process started by a test: its URL (for `serve`) and everything it printed so far. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Where a CLI process runs, set up before it starts, without privileges (root or not):
 * `openFiles` raises its file descriptor limit (`ulimit -n`, up to the hard limit); `tmpfs` mounts a
 * RAM file system of `size` (`64k`) on `dir`, seen by that process only (a user and mount namespace:
 * `unshare`), so a test can fill it up: a real ENOSPC. Read what it wrote through
 * `/proc/<pid>/root/<dir>` while it runs; the mount goes with the process. {@link canMountTmpfs}
 * tells whether this machine allows it.
 */
export interface CliSandbox {
  openFiles?: number;
  tmpfs?: { dir: string; size: string };
}

/** True when {@link CliSandbox}'s `tmpfs` works here (user namespaces may be turned off). */
export function canMountTmpfs(): boolean {
  const probe = spawnSync(
    'unshare',
    ['--user', '--map-root-user', '--mount', '/bin/sh', '-c', 'mount -t tmpfs -o size=4k mockvideo-probe /tmp'],
    { stdio: 'ignore', timeout: 5000 },
  );
  return probe.status === 0;
}

/** Spawns the CLI, in `sandbox` when given (see {@link CliSandbox}). */
function spawnCli(
  args: string[],
  options: { cwd?: string | undefined; env?: NodeJS.ProcessEnv | undefined; sandbox?: CliSandbox | undefined },
): ChildProcessWithoutNullStreams {
  const spawnOptions = { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } };
  const { openFiles, tmpfs } = options.sandbox ?? {};
  if (openFiles === undefined && tmpfs === undefined) return spawn(process.execPath, [BIN, ...args], spawnOptions);
  // `unshare` and `exec` replace themselves: the child's pid is the CLI's.
  const steps = [
    tmpfs ? 'mount -t tmpfs -o size="$1" mockvideo-test "$2"' : '',
    openFiles !== undefined ? `ulimit -n ${openFiles}` : '',
    'shift 2',
    'exec "$@"',
  ]
    .filter(Boolean)
    .join(' && ');
  const shell = ['/bin/sh', '-c', steps, 'sh', tmpfs?.size ?? '', tmpfs?.dir ?? '', process.execPath, BIN, ...args];
  return tmpfs
    ? spawn('unshare', ['--user', '--map-root-user', '--mount', ...shell], spawnOptions)
    : spawn(shell[0]!, shell.slice(1), spawnOptions);
}

/**
 * Starts `mockvideo <args>` and resolves once it printed an `http://HOST:PORT` URL on its first
 * line. Rejects with what it printed if it exits first or prints no URL within 25 s.
 */
export function startCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; sandbox?: CliSandbox } = {},
): Promise<CliProcess> {
  const child = spawnCli(args, options);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mockvideo ${args.join(' ')} printed no URL within 25 s.\nstdout: ${out}\nstderr: ${err}`));
    }, 25_000);
    const exitedEarly = (code: number | null) => {
      clearTimeout(timer);
      reject(
        new Error(`mockvideo ${args.join(' ')} exited with ${code} before serving.\nstdout: ${out}\nstderr: ${err}`),
      );
    };
    child.once('exit', exitedEarly);
    child.stdout.on('data', () => {
      const firstLine = out.split('\n')[0] ?? '';
      const m = /http:\/\/[^\s]+:\d+/.exec(firstLine);
      if (m && out.includes('\n')) {
        clearTimeout(timer);
        // Only this listener: the one behind `exited` must stay, or stop() never resolves.
        child.off('exit', exitedEarly);
        resolve({
          child,
          url: m[0],
          stdout: () => out,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
  });
}

/** Runs `mockvideo <args>` to completion; resolves with its exit code and output. */
export function runCli(
  args: string[],
  options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
