import { MockvideoError, PrefixedError, errorText } from '../errors.js';
import { say } from '../stderr.js';

/** Exit codes: 0 success; 1 checks found problems (`validate`); 2 bad input (flag, scenario, file). */
export const EXIT = { ok: 0, problems: 1, badInput: 2 } as const;

/**
 * Prints a mockvideo error (or any error) to stderr, once behind the prefix, and exits with code 2
 * (bad input: a `MockvideoError`) or 1: a message of ours as it is, any other error with its stack
 * (a fault of ours, to report). An unknown scenario name that is a typo of a known one says `Did
 * you mean "gallery"?` (its message, see `UnknownScenarioError`).
 */
export function exitWithError(error: unknown): never {
  if (error instanceof MockvideoError) {
    say(error.text);
    process.exit(EXIT.badInput);
  }
  say(error instanceof PrefixedError ? error.text : ((error as Error | undefined)?.stack ?? errorText(error)));
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
      if (atOnce) say(atOnce);
      process.exit(EXIT.ok);
    }
    stopping = true;
    stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
