import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { OPERATION_NAMES } from '../../contract/core.js';
import { EXIT, exitWithError, stopOnSignals } from '../exit.js';
import { dashboardLine, jsonLines, type OutputArgs } from '../output.js';
import { normaliseFlags, policyFromArgs, type NormaliseArgs } from '../normalise-options.js';
import {
  hostOption,
  insecureUpstreamWarning,
  numberFrom,
  portOption,
  recordingOptions,
  recordingSettings,
  type ArgsOf,
  pathValue,
} from '../options.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { say } from '../../stderr.js';

/** The flags of `record` besides the normalisation flags. */
const recordOptions = {
  upstream: {
    type: 'string',
    demandOption: true,
    describe: 'The real service, e.g. https://api.example.com (the only host requests go to)',
  },
  out: {
    type: 'string',
    demandOption: true,
    ...pathValue,
    describe: 'Recording folder to write (created if missing)',
  },
  port: portOption,
  host: hostOption,
  'max-body-size': {
    requiresArg: true,
    default: 32,
    describe: 'Largest upstream body to record, in MiB (a larger one gets a 502)',
    coerce: numberFrom('max-body-size', 'a number of MiB from 0 to 1024', (n) => n > 0 && n <= 1024),
  },
  only: {
    type: 'string',
    array: true,
    choices: OPERATION_NAMES,
    describe: 'Re-record only this operation: replaces its recordings in --out, leaves the rest alone',
  },
  ...recordingOptions,
} as const;

type RecordArgs = NormaliseArgs & OutputArgs & ArgsOf<typeof recordOptions>;

/**
 * `mockvideo record --upstream URL --out DIR`: a recording reverse proxy to the upstream only.
 * Prints the URL on its first line, then one line per exchange. SIGINT/SIGTERM: stops accepting,
 * lets exchanges in flight finish and be stored, prints the count and exits 0.
 */
export const recordCommand: CommandModule<object, RecordArgs> = {
  ...COMMAND_HEADINGS.record,
  builder: (yargs: Argv) =>
    yargs
      .options(recordOptions)
      .options(normaliseFlags)
      .example('$0 record --upstream https://api.example.com --out recordings/session1', 'Record a session')
      .example(
        '$0 record --upstream https://api.example.com --out recordings/session1 --only meta/plugin',
        'Re-record the plugin list only',
      )
      .example(
        '$0 record --upstream https://staging.example.test --out recordings/staging --insecure-upstream',
        'Record a test server with a self-signed certificate',
      ) as unknown as Argv<RecordArgs>,
  handler: async (args: ArgumentsCamelCase<RecordArgs>) => {
    const settings = recordingSettings(args);
    // Loaded when the command runs, not at every start of the CLI.
    const { formatProxyLine, lostExchangeLine, startRecorder } = await import('../../server/modes/record.js');
    const { quiet, log } = args;
    const json = log === 'json' && !quiet ? jsonLines('exchange') : undefined;
    const tally = { exchanges: 0, skipped: 0, failures: 0, lost: 0, refused: 0, leaks: 0 };
    const recorder = await startRecorder({
      ...settings,
      dir: args.out,
      port: args.port,
      host: args.host,
      maxBodyBytes: Math.round(args.maxBodySize * 1024 * 1024),
      policy: policyFromArgs(args),
      only: args.only,
      onExchange: (entry) => {
        tally.exchanges++;
        const refused = entry.lost?.code === 'EREDACTION';
        if (entry.recorded === undefined)
          tally[refused ? 'refused' : entry.lost ? 'lost' : entry.status >= 500 ? 'failures' : 'skipped']++;
        tally.leaks += entry.leaks;
        if (json) json({ n: tally.exchanges, ...entry });
        else if (!quiet) process.stdout.write(`[${tally.exchanges}] ${formatProxyLine(entry)}\n`);
        // Even with --quiet: a lost exchange is never silent.
        if (entry.lost) say(refused ? entry.lost.message : lostExchangeLine(entry));
      },
    });
    process.stdout.write(`mockvideo recording at ${recorder.running.url} → ${settings.upstream} into ${args.out}\n`);
    process.stdout.write(dashboardLine(recorder.running.url));
    if (args.insecureUpstream) say(insecureUpstreamWarning(settings.upstream));
    if (args.host === '0.0.0.0') process.stdout.write(`  Android emulator: http://10.0.2.2:${recorder.running.port}\n`);
    stopOnSignals(() => {
      recorder.stop().then(({ recorded }) => {
        process.stdout.write(
          `Recorded ${recorded} exchange${recorded === 1 ? '' : 's'} into ${args.out}: ${tally.exchanges} seen, ${tally.skipped} skipped (not recorded), ` +
            `${tally.failures} failed (5xx or upstream errors, not recorded without --record-failures), ${tally.lost} lost (write errors)` +
            `${tally.refused ? `, ${tally.refused} refused (a secret where redacting it would break the recording)` : ''}` +
            `${tally.leaks ? `, ${tally.leaks} echo${tally.leaks === 1 ? '' : 'es'} of secrets redacted (listed on each exchange's line)` : ''}\n`,
        );
        if (tally.lost)
          say(
            `${tally.lost} exchange${tally.lost === 1 ? ' was' : 's were'} answered but NOT recorded because of write errors (listed above).`,
          );
        if (tally.refused)
          say(
            `${tally.refused} exchange${tally.refused === 1 ? ' was' : 's were'} answered but NOT recorded: redacting a secret would have broken the recording (listed above).`,
          );
        // A session with lost exchanges is an incomplete recording: a script must be able to tell.
        process.exit(tally.lost || tally.refused ? EXIT.problems : EXIT.ok);
      }, exitWithError);
    }, `Stopped at once: exchanges still in flight were not recorded, nor answered ones whose recording was still waiting to be written (the files written are whole).`);
  },
};
