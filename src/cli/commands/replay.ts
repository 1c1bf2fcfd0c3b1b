// This module loads only when replay runs (see command-list.ts), so what replay runs is imported here.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { MockvideoError } from '../../errors.js';
import { resolvePolicy } from '../../normalise/index.js';
import { formatNearMissReport } from '../../replay/near-miss.js';
import type { MatchMode } from '../../replay/replayer.js';
import { startReplayServer, type ReplaySetup } from '../../server/modes/replay.js';
import type { Engine } from '../../server/modes/serve.js';
import { loadCheckedRecordingIndex } from '../../storage/load-recordings.js';
import { watchFolder } from '../../storage/watch-folder.js';
import { exitWithError, stopOnSignals } from '../exit.js';
import { dashboardLine, requestLogger, type OutputArgs } from '../output.js';
import { normaliseOptions, policyFromArgs, type NormaliseArgs } from '../normalise-options.js';
import {
  allowHostOption,
  engineOption,
  hostOption,
  insecureUpstreamOption,
  insecureUpstreamWarning,
  portOption,
  scenariosDirOption,
  upstreamTimeoutOption,
  upstreamUrl,
} from '../options.js';
import { liveStateOptions, liveStateSettings, type LiveStateArgs } from '../live-state-options.js';
import { progressCallback } from '../progress.js';
import { stateOptions, stateSettings, type StateArgs } from '../state-options.js';

interface ReplayArgs extends NormaliseArgs, StateArgs, LiveStateArgs {
  dir: string;
  match: MatchMode;
  'fallback-scenario'?: string;
  'scenarios-dir'?: string;
  'record-missing': boolean;
  'record-failures': boolean;
  upstream?: string;
  'upstream-timeout': number;
  'insecure-upstream': boolean;
  port: number;
  host: string;
  watch: boolean;
  engine: string;
  'allow-host'?: string[];
}

/** What {@link runReplay} needs: the server's setup from the flags (one definition, see `ReplaySetup`), the output and the watch. */
export interface RunReplayOptions {
  server: ReplaySetup;
  /** `--log`, `--quiet`, `--verbose`; default: text lines. */
  output?: OutputArgs;
  /** Reload the folder when its files change (not with `recordMissing`, which writes into it). */
  watch?: boolean;
}

/**
 * Serves a recording folder until SIGINT/SIGTERM, then prints the recordings never used and exits 0.
 * The first line printed carries the URL; then one line per request with its match kind, and the
 * near-miss table of every request no recording answers.
 */
export async function runReplay({ server: options, output, watch }: RunReplayOptions): Promise<void> {
  // The proxy's log lines only with --record-missing (record-server.js loads the recorder).
  const recorder = options.recordMissing ? await import('../../server/modes/record.js') : undefined;
  const onRequest = requestLogger(output ?? { log: 'text', quiet: false, verbose: false });
  const replay = await startReplayServer({
    ...options,
    ...(onRequest ? { onRequest } : {}),
    onMiss: (report) => process.stdout.write(`${formatNearMissReport(report)}\n`),
    onProgress: progressCallback('Loading recordings'),
    onRecorded: (entry) => {
      process.stdout.write(`  ${recorder!.formatProxyLine(entry)}\n`);
      if (entry.lost) process.stderr.write(recorder!.lostExchangeLine(entry));
    },
  });
  const { running } = replay;
  process.stdout.write(
    `mockvideo replaying ${options.dir} at ${running.url} (${replay.loaded} recording${replay.loaded === 1 ? '' : 's'}, match ${options.match}${options.fallbackScenario ? `, fallback scenario "${options.fallbackScenario}"` : ''}${options.recordMissing ? `, recording misses from ${options.recordMissing.upstream}` : ''})\n`,
  );
  process.stdout.write(dashboardLine(running.url));
  const faults = replay.context.faults.list();
  if (faults.length)
    process.stdout.write(
      `  faults: ${faults.map((p) => p.spec).join(', ')} (listed at ${running.url}/__mockvideo/faults)\n`,
    );
  if (options.host === '0.0.0.0') process.stdout.write(`  Android emulator: http://10.0.2.2:${running.port}\n`);
  if (options.recordMissing?.insecureUpstream)
    process.stderr.write(insecureUpstreamWarning(options.recordMissing.upstream));
  // One reload at a time (a large folder takes seconds to read), and
  // one more after it when the folder changed meanwhile; a reload followed by another is not applied.
  let reloading = false;
  let changedAgain = false;
  const reload = (): void => {
    if (reloading) {
      changedAgain = true;
      return;
    }
    reloading = true;
    loadCheckedRecordingIndex(options.dir, options.policy)
      .then(
        ({ index, problems }) => {
          if (changedAgain) return;
          if (problems.length) {
            const list = problems.map((p) => `  ${p.file}${p.path ? ` at ${p.path}` : ''}: ${p.message}`).join('\n');
            process.stderr.write(
              `[mockvideo] The changed recordings have problems:\n${list}\n[mockvideo] Kept serving the last good recordings.\n`,
            );
            return;
          }
          replay.replayer.replaceRecordings(index);
          const count = index.size;
          process.stdout.write(
            `recordings reloaded from ${options.dir}: ${count} recording${count === 1 ? '' : 's'} live\n`,
          );
        },
        (error: Error) =>
          process.stderr.write(`[mockvideo] ${error.message}\n[mockvideo] Kept serving the last good recordings.\n`),
      )
      .finally(() => {
        reloading = false;
        if (changedAgain) {
          changedAgain = false;
          reload();
        }
      });
  };
  const watcher =
    watch && !options.recordMissing
      ? watchFolder({ dir: options.dir, depth: 1, accepts: (file) => file.endsWith('.json'), onChange: reload })
      : undefined;
  stopOnSignals(() => {
    void watcher?.close();
    replay.stop().then(({ unused }) => {
      if (unused.length) {
        process.stdout.write(
          `Unused recordings (${unused.length} of ${replay.replayer.index.size}):\n${unused.map((name) => `  ${name}\n`).join('')}`,
        );
      } else process.stdout.write('Every recording was used.\n');
      process.exit(0);
    }, exitWithError);
  });
}

/** `mockvideo replay DIR`: serves recorded exchanges; see {@link runReplay}. Exit code 2 for a corrupt recording or a bad flag. */
export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay <dir>',
  describe: 'Serve a recording folder: exact matches, else the nearest recording or a near-miss report',
  builder: (yargs: Argv) =>
    normaliseOptions(
      yargs
        .positional('dir', {
          type: 'string',
          normalize: true,
          describe: 'Recording folder (from "mockvideo record" or "mockvideo import")',
        })
        .option('match', {
          choices: ['strict', 'nearest'] as const,
          default: 'nearest' as MatchMode,
          describe: 'strict: a miss gets a 404 near-miss report; nearest: the closest recording of the same operation',
        })
        .option('fallback-scenario', {
          type: 'string',
          describe:
            'Answer every request without an exact recording from this scenario (instead of the nearest recording or a 404)',
        })
        .option('scenarios-dir', scenariosDirOption)
        .option('record-missing', {
          type: 'boolean',
          default: false,
          describe: 'Fetch what has no exact recording from --upstream and record it',
        })
        .option('record-failures', {
          type: 'boolean',
          default: false,
          describe: 'With --record-missing: also record 5xx answers of the upstream (always passed to the client)',
        })
        .option('upstream', { type: 'string', describe: 'The real service, for --record-missing' })
        .option('upstream-timeout', upstreamTimeoutOption)
        .option('insecure-upstream', insecureUpstreamOption)
        .option('port', portOption)
        .option('host', hostOption)
        .option('watch', {
          type: 'boolean',
          default: true,
          describe:
            'Reload the recordings when their files change; broken files keep the last good set serving (--no-watch to turn off)',
        })
        .option('engine', engineOption)
        .option('allow-host', allowHostOption)
        .options(liveStateOptions)
        .options(stateOptions),
    )
      .example('$0 replay recordings/session1', 'Replay a session on http://127.0.0.1:8787')
      .example('$0 replay recordings/session1 --match strict', 'Explain every request that was not recorded')
      .example('$0 replay recordings/session1 --fallback-scenario default', 'Answer what is missing from a scenario')
      .example(
        '$0 replay recordings/session1 --latency recorded',
        'Answer as slowly as the real service did',
      ) as unknown as Argv<ReplayArgs>,
  handler: async (args: ArgumentsCamelCase<ReplayArgs>) => {
    try {
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
      await runReplay({
        server: {
          dir: args.dir,
          match: args.match,
          policy: policyFromArgs(args),
          port: args.port,
          host: args.host,
          ...(args.fallbackScenario ? { fallbackScenario: args.fallbackScenario } : {}),
          ...(args.scenariosDir ? { scenariosDir: args.scenariosDir as string } : {}),
          ...(args.recordMissing
            ? {
                recordMissing: {
                  upstream: upstreamUrl(args.upstream!),
                  timeoutMs: args.upstreamTimeout * 1000,
                  recordFailures: args.recordFailures,
                  insecureUpstream: args.insecureUpstream,
                },
              }
            : {}),
          engine: args.engine as Engine,
          ...(args.allowHost?.length ? { allowHosts: args.allowHost as string[] } : {}),
          ...stateSettings(args),
          ...(await liveStateSettings(args)),
        },
        output: args as unknown as OutputArgs,
        watch: args.watch,
      });
    } catch (error) {
      exitWithError(error);
    }
  },
};

/** The default policy, for `serve --replay`. */
export const DEFAULT_REPLAY_POLICY = resolvePolicy();
