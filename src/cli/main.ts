import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PREFIX } from '../errors.js';
import { scenariosCommand } from './commands/scenarios.js';
import { serveCommand } from './commands/serve.js';
import { validateCommand } from './commands/validate.js';
import { verifyCommand } from './commands/verify.js';
import { newScenarioCommand } from './commands/new-scenario.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { recordCommand } from './commands/record.js';
import { replayCommand } from './commands/replay.js';
import { EXIT } from './exit.js';

/**
 * Runs the mockvideo command line with `argv` (default: this process's arguments). A bad flag or
 * command prints the problem and the usage and exits with code 2.
 */
export async function main(argv: string[] = hideBin(process.argv)): Promise<void> {
  // `mockvideo scenarios | head`: a closed pipe ends the output, not the process with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  await yargs(argv)
    .scriptName('mockvideo')
    .usage('$0 <command> [options]\n\nMock and record/replay server for the video player backend (/api/g1).')
    .command(serveCommand)
    .command(scenariosCommand)
    .command(validateCommand)
    .command(verifyCommand)
    .command(newScenarioCommand)
    .command(recordCommand)
    .command(replayCommand)
    .command(importCommand)
    .command(exportCommand)
    .completion('completion', 'Print a shell completion script (bash/zsh): mockvideo completion >> ~/.bashrc')
    .demandCommand(1, 'Name a command, e.g. "mockvideo serve".')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      process.stderr.write(`${PREFIX} ${message ?? error?.message}\nRun "mockvideo --help" or "mockvideo <command> --help" for usage.\n`);
      process.exit(EXIT.badInput);
    })
    .parseAsync();
}
