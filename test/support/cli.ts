import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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
 * Starts `mockvideo <args>` and resolves once it printed an `http://HOST:PORT` URL on its first
 * line. Rejects with what it printed if it exits first or prints no URL within 10 s.
 */
export function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliProcess> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
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
      reject(new Error(`mockvideo ${args.join(' ')} exited with ${code} before serving.\nstdout: ${out}\nstderr: ${err}`));
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
export function runCli(args: string[], options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
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
