import type { Argv, CommandModule } from 'yargs';
import { MockvideoError } from '../../errors.js';
import type { VerifyReport } from '../../verify/verify.js';
import { EXIT } from '../exit.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .option('url', {
      type: 'string',
      demandOption: true,
      describe: 'The running mockvideo, e.g. http://127.0.0.1:8787',
    })
    .option('gap', {
      type: 'number',
      default: 5,
      describe: 'Seconds of quiet that separate two bursts (start-ups) of one device',
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
    .example('$0 verify --url http://127.0.0.1:8787', 'Did the app call each operation once per start-up?');

/**
 * `mockvideo verify --url URL`: asks a running mockvideo for its verify report (the journal against
 * the seed's call rules), prints it, and exits 1 when a rule fails, so CI can use it.
 */
export const verifyCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.verify,
  builder,
  handler: async (args) => {
    const url = `${args.url.replace(/\/+$/, '')}/__mockvideo/verify?gap=${encodeURIComponent(String(args.gap))}`;
    let report: VerifyReport;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      report = (await response.json()) as VerifyReport;
    } catch (error) {
      throw new MockvideoError(
        'MV_USAGE',
        `Cannot get the verify report from ${url}: ${(error as Error).message}. Is "mockvideo serve" running there?`,
      );
    }
    // Loaded when the command runs, not at every start of the CLI.
    const { formatReport } = await import('../../verify/verify.js');
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    process.exitCode = report.ok ? EXIT.ok : EXIT.problems;
  },
};
