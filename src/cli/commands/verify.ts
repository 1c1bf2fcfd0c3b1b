import type { Argv, CommandModule } from 'yargs';
import { MockvideoError } from '../../errors.js';
import type { VerdictSuite } from '../../verify/verdicts.js';
import type { VerifyReport } from '../../verify/verify.js';
import { EXIT } from '../exit.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { runningServerOption, type BuiltArgs } from '../options.js';
import { reportVerdicts, verdictOptions } from '../verdict-options.js';

const builder = (yargs: Argv) =>
  yargs
    .option('url', runningServerOption)
    .option('gap', {
      type: 'number',
      default: 5,
      describe: 'Seconds of quiet that separate two bursts (start-ups) of one device',
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
    .options(verdictOptions)
    .example('$0 verify --url http://127.0.0.1:8787', 'Did the app call each operation once per start-up?')
    .example(
      '$0 verify --url http://127.0.0.1:8787 --junit build/mockvideo.xml',
      'The same as JUnit XML for the CI: a test suite per device, a test case per start-up and per operation',
    )
    .example(
      '$0 verify --url http://127.0.0.1:8787 --fail-on start-ups',
      'Fail on the start-up rules only (contract findings and unanswered requests are reported, not counted)',
    );

/**
 * `mockvideo verify --url URL`: asks a running mockvideo for its verify report (the journal against
 * the seed's call rules), prints it, writes `--junit FILE` when given, and exits 1 when a case that
 * `--fail-on` counts fails (0 otherwise), so CI can use it.
 */
export const verifyCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.verify,
  builder,
  handler: async (args) => {
    const url = `${args.url.replace(/\/+$/, '')}/__mockvideo/verify?gap=${encodeURIComponent(String(args.gap))}`;
    let report: VerifyReport & { suites: VerdictSuite[] };
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      report = (await response.json()) as typeof report;
    } catch (error) {
      throw new MockvideoError(
        'MV_USAGE',
        `Cannot get the verify report from ${url}: ${(error as Error).message}. Is "mockvideo serve" running there?`,
      );
    }
    // Loaded when the command runs, not at every start of the CLI.
    const { formatReport } = await import('../../verify/verify.js');
    const { suites, ...rules } = report;
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(rules, args.failOn));
    const failed = await reportVerdicts(
      suites,
      args,
      (line) => void (args.json ? process.stderr : process.stdout).write(line),
    );
    process.exitCode = failed ? EXIT.problems : EXIT.ok;
  },
};
