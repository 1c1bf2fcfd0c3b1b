// This module loads only when replay runs (see command-list.ts), so what replay runs is imported here.
import { statSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { MockvideoError, formatProblem, errorText } from '../../errors.js';
import { formatNearMissReport } from '../../replay/near-miss.js';
import { startBundleServer, startReplayServer } from '../../server/modes/replay.js';
import { loadCheckedRecordingIndex } from '../../storage/load-recordings.js';
import { watchFolder } from '../../storage/watch-folder.js';
import { exitWithError, stopOnSignals } from '../exit.js';
import { normaliseFlags, policyFromArgs, type NormaliseArgs } from '../normalise-options.js';
import { insecureUpstreamWarning, recordingOptions, recordingSettings, type ArgsOf, pathValue } from '../options.js';
import { adminLogger } from '../output.js';
import { progressCallback } from '../progress.js';
import { printListening, serverOptions, serverSettings, type ServerArgs } from '../server-options.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { stopReport, unwrittenReport } from '../stop-report.js';
import { say } from '../../stderr.js';

/** The flags of `replay` besides the ones it shares with `serve` (`serve --replay DIR` leaves them at their defaults). */
const replayOptions = {
  match: {
    choices: ['strict', 'nearest'] as const,
    default: 'nearest' as const,
    describe: 'strict: a miss gets a 404 near-miss report; nearest: the closest recording of the same operation',
  },
  'fallback-scenario': {
    type: 'string',
    describe:
      'Answer every request without an exact recording from this scenario (instead of the nearest recording or a 404)',
  },
  'record-missing': {
    type: 'boolean',
    default: false,
    describe: 'Fetch what has no exact recording from --upstream and record it',
  },
  upstream: { type: 'string', describe: 'The real service, for --record-missing' },
  ...recordingOptions,
} as const;

type ReplayArgs = ServerArgs & NormaliseArgs & ArgsOf<typeof replayOptions> & { source: string };

/** True when `source` is a file (a bundle), not a folder (or nothing: the folder's own error says so). */
function isFile(source: string): boolean {
  try {
    return statSync(source).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the start-up bundle `file` (see `startBundleServer`) until SIGINT/SIGTERM, then prints the
 * exchanges no request got and exits 0. The first line carries the URL; then one line per request,
 * and the near-miss table of every request the bundle does not hold.
 * @throws MockvideoError (`MV_BUNDLE_INVALID`) naming the file and the field; (`MV_USAGE`) for a folder's flag.
 */
async function runBundleReplay(file: string, args: ServerArgs & NormaliseArgs & Partial<ArgsOf<typeof replayOptions>>) {
  const folderOnly = args.recordMissing
    ? '--record-missing'
    : args.fallbackScenario
      ? '--fallback-scenario'
      : undefined;
  if (folderOnly)
    throw new MockvideoError(
      'MV_USAGE',
      `${folderOnly} takes a recording folder; ${file} is a bundle, which answers the requests it holds and explains the others. Leave ${folderOnly} out.`,
    );
  // The bundle's schema (zod) loads only for a bundle.
  const { readBundleFile } = await import('../../storage/bundle-file.js');
  const bundle = readBundleFile(file);
  const replay = await startBundleServer({
    ...(await serverSettings(args)),
    bundle,
    source: file,
    policy: policyFromArgs(args),
    onMiss: (report) => process.stdout.write(`${formatNearMissReport(report)}\n`),
  });
  const { running } = replay;
  const count = bundle.exchanges.length;
  process.stdout.write(
    `mockvideo replaying the bundle ${file} at ${running.url} (start-up ${bundle.verdict.id}: ${count} request${count === 1 ? '' : 's'}, in their order, to any device)\n`,
  );
  printListening(running, replay.context);
  const { clock } = bundle;
  if (clock.mode !== 'real')
    process.stdout.write(
      `  the bundle's server had its clock ${clock.frozenAt ? `frozen at ${clock.frozenAt}` : ''}${clock.frozenAt && clock.offsetMs ? ', ' : ''}${clock.offsetMs ? `offset by ${clock.offsetMs} ms` : ''}: --clock and --clock-offset set this one's\n`,
    );
  stopOnSignals(() => {
    replay
      .stop()
      .then(({ unused }) => {
        process.stdout.write(
          unused.length
            ? `Exchanges of the bundle no request got (${unused.length} of ${count}):\n${unused.map((name) => `  ${name}\n`).join('')}`
            : 'Every exchange of the bundle was answered.\n',
        );
        return stopReport(replay.context, args).then((code) => process.exit(code));
      })
      .catch(exitWithError);
  }, unwrittenReport(args));
}

/**
 * Serves the recording folder `dir` (a file: a start-up bundle, see {@link runBundleReplay}) from the
 * flags of `replay` (or of `serve --replay DIR`, whose
 * args lack replay's own flags: they take their defaults) until SIGINT/SIGTERM, then prints the
 * recordings never used and exits 0. The first line printed carries the URL; then one line per
 * request with its match kind, and the near-miss table of every request no recording answers.
 * @throws MockvideoError (`MV_USAGE`) for `--record-failures` without `--record-missing`, or `--record-missing` without `--upstream`.
 */
export async function runReplay(
  dir: string,
  args: ServerArgs & NormaliseArgs & Partial<ArgsOf<typeof replayOptions>>,
): Promise<void> {
  if (isFile(dir)) return runBundleReplay(dir, args);
  if (args.recordFailures && !args.recordMissing)
    throw new MockvideoError(
      'MV_USAGE',
      '--record-failures records what --record-missing fetches: add --record-missing --upstream URL, or leave --record-failures out.',
    );
  if (args.recordMissing && !args.upstream)
    throw new MockvideoError(
      'MV_USAGE',
      '--record-missing needs --upstream URL (the real service to fetch what is missing from).',
    );
  // The proxy's log lines only with --record-missing (record.js loads the recorder).
  const recorder = args.recordMissing ? await import('../../server/modes/record.js') : undefined;
  const recordMissing = recorder && {
    ...recordingSettings({ ...(args as ReplayArgs), upstream: args.upstream! }),
    onExchange: (entry: import('../../record/exchange-log.js').ProxyLogEntry) => {
      process.stdout.write(`  ${recorder.formatProxyLine(entry)}\n`);
      if (entry.lost) say(recorder.lostExchangeLine(entry));
    },
  };
  const policy = policyFromArgs(args);
  const replay = await startReplayServer({
    ...(await serverSettings(args)),
    dir,
    match: args.match ?? 'nearest',
    policy,
    fallbackScenario: args.fallbackScenario,
    recordMissing,
    onMiss: (report) => process.stdout.write(`${formatNearMissReport(report)}\n`),
    onProgress: progressCallback('Loading recordings'),
  });
  const { running } = replay;
  process.stdout.write(
    `mockvideo replaying ${dir} at ${running.url} (${replay.loaded} recording${replay.loaded === 1 ? '' : 's'}, match ${args.match ?? 'nearest'}${args.fallbackScenario ? `, fallback scenario "${args.fallbackScenario}"` : ''}${recordMissing ? `, recording misses from ${recordMissing.upstream}` : ''})\n`,
  );
  printListening(running, replay.context);
  replay.context.onAdminChange = adminLogger(args);
  if (recordMissing?.insecureUpstream) say(insecureUpstreamWarning(recordMissing.upstream));
  // One reload at a time (a large folder takes seconds to read), and one more after it when the
  // folder changed meanwhile; a reload followed by another is not applied.
  let reloading = false;
  let changedAgain = false;
  const reload = async (): Promise<void> => {
    changedAgain = true;
    if (reloading) return;
    reloading = true;
    while (changedAgain) {
      changedAgain = false;
      try {
        const { index, problems } = await loadCheckedRecordingIndex(dir, policy);
        if (changedAgain) continue;
        if (problems.length) {
          const list = problems.map((p) => `  ${formatProblem({ ...p, source: p.file })}`).join('\n');
          say(`The changed recordings have problems:\n${list}`);
          say('Kept serving the last good recordings.');
          continue;
        }
        replay.replayer.replaceRecordings(index);
        const count = index.size;
        process.stdout.write(`recordings reloaded from ${dir}: ${count} recording${count === 1 ? '' : 's'} live\n`);
      } catch (error) {
        say(errorText(error));
        say('Kept serving the last good recordings.');
      }
    }
    reloading = false;
  };
  // Not with --record-missing, which writes into the folder.
  const watcher =
    args.watch && !recordMissing
      ? watchFolder({ dir, depth: 1, accepts: (file) => file.endsWith('.json'), onChange: () => void reload() })
      : undefined;
  stopOnSignals(() => {
    void watcher?.close();
    replay
      .stop()
      .then(({ unused }) => {
        if (unused.length) {
          process.stdout.write(
            `Unused recordings (${unused.length} of ${replay.replayer.index.size}):\n${unused.map((name) => `  ${name}\n`).join('')}`,
          );
        } else process.stdout.write('Every recording was used.\n');
        return stopReport(replay.context, args).then((code) => process.exit(code));
      })
      .catch(exitWithError);
  }, unwrittenReport(args));
}

/** `mockvideo replay DIR|FILE`: serves recorded exchanges or a start-up bundle; see {@link runReplay}. Exit code 2 for a corrupt recording or bundle, or a bad flag. */
export const replayCommand: CommandModule<object, ReplayArgs> = {
  ...COMMAND_HEADINGS.replay,
  builder: (yargs: Argv) =>
    yargs
      .positional('source', {
        type: 'string',
        ...pathValue,
        describe:
          'Recording folder (from "mockvideo record" or "mockvideo import"), or a start-up bundle file (from GET /__mockvideo/start-ups/ID/bundle)',
      })
      .options(replayOptions)
      .options(serverOptions)
      .options(normaliseFlags)
      .example('$0 replay recordings/session1', 'Replay a session on http://127.0.0.1:8787')
      .example('$0 replay recordings/session1 --match strict', 'Explain every request that was not recorded')
      .example('$0 replay mockvideo-bundle-7.json', "Answer a start-up bundle's requests in its order, faults and all")
      .example('$0 replay recordings/session1 --fallback-scenario default', 'Answer what is missing from a scenario')
      .example(
        '$0 replay recordings/session1 --latency recorded',
        'Answer as slowly as the real service did',
      ) as unknown as Argv<ReplayArgs>,
  handler: async (args: ArgumentsCamelCase<ReplayArgs>) => {
    await runReplay(args.source, args);
  },
};
