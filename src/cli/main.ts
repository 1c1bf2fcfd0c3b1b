import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { errorText } from '../errors.js';
import { say } from '../stderr.js';
import { COMMAND_NAMES, commandStandIn, isCommandName, type AnyCommand } from './command-list.js';
import { withFlagSuggestions } from './did-you-mean.js';
import { outputOptions } from './output.js';
import { EXIT, exitWithError } from './exit.js';
import { readSettings } from './config.js';

const COMPLETION_DESCRIBE = 'Print a shell completion script (bash/zsh): mockvideo completion >> ~/.bashrc';

/** What `mockvideo completion --help` shows: the command's usage with examples (yargs would print the script). */
const completionHelpCommand: AnyCommand = {
  command: 'completion',
  describe: COMPLETION_DESCRIBE,
  builder: (yargs) =>
    yargs
      .usage(
        '$0 completion\n\nPrints a completion script for bash or zsh: add it to your shell\'s start-up file once, then press Tab after "mockvideo".',
      )
      .example('$0 completion >> ~/.bashrc', 'Complete commands and flags in bash (open a new shell afterwards)')
      .example('$0 completion >> ~/.zshrc', 'The same for zsh') as never,
  handler: () => {},
};

/** yargs' own usage object, which it asks to render a command's help (not in its public types). */
type UsageInternals = { cacheHelpMessage?: () => void };

/**
 * Keeps yargs from rendering a command's whole help at every run (its internal `cacheHelpMessage`,
 * called once a command's handler has started), for a failure message our `fail` never prints (as
 * Angular's CLI does, angular/angular-cli#34087). The render blocked the first answer: `replay` of
 * 10 recordings from spawn to first answer took 183–189 instead of 172–175 ms (median of 11, Node
 * 20, 2 December). Without that internal (another yargs), yargs renders it as before.
 */
function skipHelpRender(cli: Argv): void {
  const internals = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => UsageInternals } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (typeof internals?.cacheHelpMessage === 'function') internals.cacheHelpMessage = () => {};
}

/**
 * Runs the mockvideo command line with `argv` (default: this process's arguments). A bad flag or
 * command prints the problem and the usage and exits with code 2.
 */
export async function main(args?: string[]): Promise<void> {
  const argv = args ?? hideBin(process.argv);
  const asksHelp = argv.some((a) => a === '--help' || a === '-h');
  // `mockvideo scenarios | head`: a closed pipe ends the output, not the process with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // The first argument that names a command (a flag's value, like `--config x.json`, may come first).
  const invoked = argv.find(isCommandName) ?? '';
  const { settings, layers } = await readSettings(argv, process.cwd(), process.env)
    .then((settings) => ({ settings, layers: settings.layersOf(invoked) }))
    .catch(exitWithError);
  const configCommand = argv.includes('config') ? (await import('./commands/config.js')).configCommand : undefined;
  const cli = yargs(argv);
  // yargs prints the script for `completion --help` too: asked for help, a plain command shows it.
  if (asksHelp && argv.find((a) => !a.startsWith('-')) === 'completion') cli.command(completionHelpCommand);
  else cli.completion('completion', COMPLETION_DESCRIBE);
  if (!asksHelp) skipHelpRender(cli);
  await cli
    .scriptName('mockvideo')
    .config(layers)
    .options(outputOptions)
    .option('config', {
      type: 'string',
      global: true,
      describe: 'Config file (default: mockvideo.config.json or .mjs, looked for from here up)',
    })
    .usage('$0 <command> [options]\n\nMock and record/replay server for the video player backend (/api/g1).')
    .command(COMMAND_NAMES.map((name) => settings.commands.get(name) ?? commandStandIn(name)))
    .command(configCommand ? (configCommand(settings) as unknown as AnyCommand) : commandStandIn('config'))
    .demandCommand(1, 'Name a command, e.g. "mockvideo serve".')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    // Help is rendered only when it is asked for (see `skipHelpRender`).
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      // yargs hands over a command's own error (a rejected handler) without a message of its own.
      if (message === null) exitWithError(error);
      const flags = [...settings.flagsOf(invoked), 'config', 'help', 'version'];
      const text = error ? errorText(error) : (message ?? '');
      say(`${withFlagSuggestions(text, flags)}\nRun "mockvideo --help" or "mockvideo <command> --help" for usage.`);
      process.exit(EXIT.badInput);
    })
    .parseAsync();
}
