import type { ServerContext } from '../server/context.js';
import { EXIT } from './exit.js';
import { reportVerdicts, type VerdictArgs } from './verdict-options.js';

/** The flags the stop report reads: `--junit`, `--fail-on` and `--gap` (seconds). */
type StopArgs = VerdictArgs & { gap: number };

/** `12 s`, `3 min 4 s`, `2 h 5 min`: how long a server ran, from milliseconds. */
function ranFor(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * What `serve` and `replay` print once they stopped (after SIGINT or SIGTERM, in-flight requests
 * answered): `mockvideo stopped after 3 min 4 s: 42 requests in the journal`, then
 * with `--junit` the verdicts of the journal as that file (see `reportVerdicts`). Returns the exit
 * code: 1 when `--junit` was given and a case that `--fail-on` counts failed, else 0.
 * @throws MockvideoError naming the file when the report cannot be written.
 */
export async function stopReport(context: ServerContext, args: StopArgs): Promise<number> {
  const entries = context.journal.exchanges().map((x) => x.entry);
  process.stdout.write(
    `mockvideo stopped after ${ranFor(Date.now() - context.startedAt)}: ${entries.length} request${entries.length === 1 ? '' : 's'} in the journal\n`,
  );
  if (!args.junit) return EXIT.ok;
  const { verdictSuites } = await import('../verify/verdicts.js');
  const failed = await reportVerdicts(verdictSuites(entries, args.gap), args);
  return failed ? EXIT.problems : EXIT.ok;
}

/** What a second signal leaves undone with `--junit`: for `stopOnSignals`' `atOnce`. */
export function unwrittenReport(args: VerdictArgs): string | undefined {
  return args.junit ? `Stopped at once: the JUnit report ${args.junit} was not written.` : undefined;
}
