// Starting the servers of the benchmark (bench/run.mjs): each
// one a child `node` process pinned to core 0 with `taskset` (the load runs on core 1), its output
// in a log file (no pipe to drain while it is under load), ready once that output shows its URL.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** True when servers can be pinned: `taskset` runs and there are two cores or more. */
export const CAN_PIN = spawnSync('taskset', ['--version']).status === 0 && cpus().length >= 2;

/** Every server started and not yet stopped, with its log file. */
const children = new Map();

/** Kills every server not stopped yet (SIGKILL) and removes their log files; for the end of a run and `process.on('exit')`. */
export function killServers() {
  for (const [child, outFile] of children) {
    child.kill('SIGKILL');
    rmSync(outFile, { force: true });
  }
  children.clear();
}

/**
 * @typedef {object} StartedServer
 * @property {string} name
 * @property {string[]} args the arguments after `node` and `nodeArgs`
 * @property {{ timeoutMs: number, nodeArgs: string[] }} options what it was started with (to start another like it)
 * @property {import('node:child_process').ChildProcess} child
 * @property {string} url `http://127.0.0.1:PORT`
 * @property {bigint} t0 `process.hrtime.bigint()` just before the spawn (for cold starts: spawn → first answer)
 * @property {() => string} output what it printed so far
 * @property {() => Promise<unknown>} stop SIGTERM (SIGKILL after 5 s), then its log file goes; resolves with its exit code or signal
 */

/**
 * Spawns `node ...nodeArgs ...args` (pinned to core 0 when {@link CAN_PIN}), with `NO_COLOR=1`, and
 * resolves once its output shows an `http://127.0.0.1:PORT` URL.
 *
 * @param {string} name for the log file's name and the error
 * @param {string[]} args
 * @param {{ timeoutMs?: number, nodeArgs?: string[], cwd?: string }} [options] timeoutMs: how long it may take to print its URL (default 30 s); cwd: default the repository's root
 * @returns {Promise<StartedServer>}
 * @throws Error with the end of its output when it exits or times out before printing a URL
 */
export function startServer(name, args, { timeoutMs = 30_000, nodeArgs = [], cwd = ROOT } = {}) {
  const outFile = join(tmpdir(), `mockvideo-bench-${name}-${process.pid}-${Date.now()}.log`);
  const fd = openSync(outFile, 'w');
  const command = CAN_PIN ? 'taskset' : process.execPath;
  const argv = CAN_PIN ? ['-c', '0', process.execPath, ...nodeArgs, ...args] : [...nodeArgs, ...args];
  const t0 = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd, stdio: ['ignore', fd, fd], env: { ...process.env, NO_COLOR: '1' } });
  closeSync(fd);
  children.set(child, outFile);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const output = () => readFileSync(outFile, 'utf8');
  const stop = async () => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    const outcome = await exited;
    children.delete(child);
    rmSync(outFile, { force: true });
    return outcome;
  };
  return new Promise((resolve, reject) => {
    const until = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      const text = output();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
      if (url) {
        clearInterval(poll);
        resolve({ name, args, options: { timeoutMs, nodeArgs }, child, url, t0, output, stop });
      } else if (child.exitCode !== null || Date.now() > until) {
        clearInterval(poll);
        child.kill('SIGKILL');
        children.delete(child);
        rmSync(outFile, { force: true });
        reject(
          new Error(
            `${name} did not start (${child.exitCode !== null ? `exit ${child.exitCode}` : 'timeout'}):\n${text.slice(-2000)}`,
          ),
        );
      }
    }, 5);
  });
}
