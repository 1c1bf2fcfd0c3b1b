import { MockvideoError } from '../errors.js';

/** Exit codes: 0 success; 1 checks found problems (`validate`); 2 bad input (flag, scenario, file). */
export const EXIT = { ok: 0, problems: 1, badInput: 2 } as const;

/**
 * Prints a mockvideo error (or any error) to stderr and exits with code 2 (bad input) or 1. An
 * unknown scenario name that is a typo of a known one says `Did you mean "gallery"?` (its message, see `UnknownScenarioError`).
 */
export function exitWithError(error: unknown): never {
  if (error instanceof MockvideoError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(EXIT.badInput);
  }
  process.stderr.write(`[mockvideo] ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(EXIT.problems);
}

/**
 * Runs `stop` (a clean shutdown: finish what is in flight, report, exit) on the first SIGINT or
 * SIGTERM. A second signal exits at once with code 0, after printing `atOnce` (what that leaves
 * undone) to stderr when given.
 */
export function stopOnSignals(stop: () => void, atOnce?: string): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) {
      if (atOnce) process.stderr.write(atOnce);
      process.exit(EXIT.ok);
    }
    stopping = true;
    stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
