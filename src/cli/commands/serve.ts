import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { SHIPPED_SCENARIOS_DIR } from '../../storage/scenario-files.js';
import { startServeServer } from '../../server/modes/serve.js';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { exitWithError, stopOnSignals } from '../exit.js';
import { adminLogger, logFindings } from '../output.js';
import { MockvideoError, errorText } from '../../errors.js';
import { printListening, serverOptions, serverSettings, type ServerArgs } from '../server-options.js';
import type { ArgsOf } from '../options.js';
import { fuzzAnswersOf, fuzzOptions, type FuzzArgs } from './fuzz.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { stopReport, unwrittenReport } from '../stop-report.js';
import { say } from '../../stderr.js';
import { pathValue } from '../options.js';

/** The flags of `serve` besides the ones it shares with `replay`. */
const serveOptions = {
  scenario: {
    alias: 's',
    type: 'string',
    default: 'default',
    describe: 'Scenario to serve (see "mockvideo scenarios")',
  },
  replay: {
    type: 'string',
    ...pathValue,
    describe: 'Serve this recording folder instead, as "mockvideo replay DIR" does (with the flags both take)',
  },
} as const;

type ServeArgs = ServerArgs & FuzzArgs & ArgsOf<typeof serveOptions>;

/**
 * `mockvideo serve`: serves the six operations from a named scenario until SIGINT or SIGTERM.
 * The first line printed carries the URL `http://HOST:PORT`; then one line per request.
 * Exit code 2 for an unknown or invalid scenario or a bad flag.
 */
export const serveCommand: CommandModule<object, ServeArgs> = {
  ...COMMAND_HEADINGS.serve,
  builder: (yargs: Argv) =>
    yargs
      .options(serveOptions)
      .options(serverOptions)
      .options(fuzzOptions)
      .example('$0 serve', 'Serve the default scenario on http://127.0.0.1:8787')
      .example('$0 serve --scenario gallery --port 0', 'Serve "gallery" on a free port')
      .example('$0 serve --fault meta/setting=status:500', 'Every meta/setting request answers HTTP 500')
      .example(
        '$0 serve --fuzz 42',
        'Answer every operation with generated edge cases from seed 42 (case in x-mockvideo-fuzz)',
      )
      .example(
        '$0 serve --host 0.0.0.0',
        'Serve devices on the network (an Android emulator uses http://10.0.2.2:8787)',
      )
      .example(
        '$0 serve --https --https-port 8443',
        'HTTP on 8787 and HTTPS on 8443 with a generated certificate',
      ) as unknown as Argv<ServeArgs>,
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    const fuzzing = await fuzzAnswersOf(args);
    if (args.replay) {
      // Every flag of serve but --scenario is one replay shares (--fuzz: see fuzzAnswersOf).
      if (args.scenario !== 'default')
        throw new MockvideoError(
          'MV_USAGE',
          'serve --replay does not take --scenario: replay answers from recordings. Drop it, or give the scenario as "mockvideo replay DIR --fallback-scenario NAME".',
        );
      return await (await import('./replay.js')).runReplay(args.replay, args);
    }
    // The scenario parser, the fault schema and zod load only for scenario files of the user's own and --fault flags.
    const catalog = await loadServeCatalog(args.scenariosDir);
    const watchedDir = args.watch
      ? (args.scenariosDir ?? (existsSync(SHIPPED_SCENARIOS_DIR) ? SHIPPED_SCENARIOS_DIR : undefined))
      : undefined;
    const { running, context } = await startServeServer({
      ...(await serverSettings(args)),
      catalog,
      scenario: args.scenario,
      fuzz: fuzzing?.fuzz,
      watch: watchedDir
        ? {
            dir: watchedDir,
            onReload: (outcome) => {
              if (outcome.ok)
                return void process.stdout.write(
                  `scenarios reloaded from ${watchedDir}: version ${outcome.version} is live\n`,
                );
              say(errorText(outcome.error));
              say(`Kept serving the last good scenarios (version ${outcome.version}).`);
            },
          }
        : undefined,
    });
    logFindings(args, context.journal);
    context.onAdminChange = adminLogger(args);
    process.stdout.write(`mockvideo serving scenario "${context.active.scenario}" at ${running.url}\n`);
    process.stdout.write(`  operations: ${running.url}/api/g1/<operation>   scenarios: ${catalog.names.join(', ')}\n`);
    if (fuzzing) {
      const run = fuzzing.fuzz.report();
      const off = run.classes.filter((c) => !c.on && (run.beyondObserved || !c.beyondObserved)).map((c) => c.name);
      process.stdout.write(
        `  fuzz: seed ${fuzzing.seed}${args.fuzzCase ? `, case ${args.fuzzCase}` : ''}, ${run.integers}-bit int${run.perDevice ? ', per device' : ''}${off.length ? `, classes off: ${off.join(', ')}` : ''}: every operation gets a generated answer (case in x-mockvideo-fuzz; mockvideo fuzz show <case>)\n`,
      );
    }
    printListening(running, context);
    stopOnSignals(
      () =>
        void running
          .close()
          .then(() => stopReport(context, args))
          .then((code) => process.exit(code), exitWithError),
      unwrittenReport(args),
    );
  },
};
