import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PREFIX } from '../errors.js';
import { COMMAND_NAMES, commandStandIn, isCommandName, loadCommands, type AnyCommand } from './command-list.js';
import { withFlagSuggestions } from './did-you-mean.js';
import { outputOptions } from './output.js';
import { EXIT, exitWithError } from './exit.js';
import {
  ENV_PREFIX,
  checkConfig,
  commandOptions,
  envSettings,
  type CommandOptions,
  findConfigFile,
  givenFlagNames,
  kebab,
  loadConfigFile,
  protectedSettings,
  resolveSettings,
} from './config.js';

/** `--config FILE` as given on the command line, read before yargs runs (it decides what yargs sees). */
function configFlag(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (at < 0) return undefined;
  return argv[at]!.includes('=') ? argv[at]!.slice('--config='.length) : argv[at + 1];
}

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
  // Settings below the flags: the config file, then MOCKVIDEO_* environment variables over it.
  // Every command also takes the global output flags.
  const withOutputFlags = (o: ReturnType<typeof commandOptions>) => ({
    keys: new Set([...o.keys, ...Object.keys(outputOptions)]),
    defaults: { ...o.defaults, ...Object.fromEntries(Object.entries(outputOptions).map(([k, v]) => [k, v.default])) },
    booleans: new Set([...o.booleans, 'quiet', 'verbose']),
    arrays: o.arrays,
    ...(o.aliases ? { aliases: o.aliases } : {}),
  });
  // A command's options are read by building it on a throwaway yargs instance: only for the commands
  // that need them (the one run; every one when a config file is checked or `config --for` asks).
  let file: string | undefined;
  try {
    file = configFlag(argv) ?? findConfigFile(process.cwd());
  } catch (error) {
    exitWithError(error);
  }
  // The modules of the commands named on the command line (yargs runs the one named first); every one
  // when a config file is checked or `config` may ask for any. The others are registered by heading.
  const commands = await loadCommands(
    file || argv.includes('config') ? COMMAND_NAMES : COMMAND_NAMES.filter((name) => argv.includes(name)),
  );
  const built = new Map<string, CommandOptions>();
  const optionsOf = (name: string): CommandOptions | undefined => {
    const command = isCommandName(name) ? commands.get(name) : undefined;
    if (!command) return undefined;
    let known = built.get(name);
    if (!known) built.set(name, (known = withOutputFlags(commandOptions(command, yargs))));
    return known;
  };
  let fileSettings: Record<string, unknown> = {};
  try {
    if (file) {
      fileSettings = await loadConfigFile(file);
      checkConfig(
        file,
        fileSettings,
        COMMAND_NAMES.map((name) => optionsOf(name)!),
      );
      fileSettings = protectedSettings(fileSettings);
    }
  } catch (error) {
    exitWithError(error);
  }
  // Without a config file or a MOCKVIDEO_* variable both layers are empty: no options to read.
  const hasEnvSettings = Object.keys(process.env).some((name) => name.startsWith(ENV_PREFIX));
  const layersFor = (command: string) => {
    const known = file || hasEnvSettings ? optionsOf(command) : undefined;
    if (!known) return { env: {}, file: {} };
    return {
      env: envSettings(process.env, known),
      file: Object.fromEntries(Object.entries(fileSettings).filter(([k]) => known.keys.has(k))),
    };
  };
  // The first argument that names a command (a flag's value, like `--config x.json`, may come first).
  const invoked = argv.find(isCommandName) ?? '';
  let layers: ReturnType<typeof layersFor> = { env: {}, file: {} };
  try {
    layers = layersFor(invoked);
  } catch (error) {
    exitWithError(error);
  }
  const resolve = (command: string, flags: Record<string, unknown>) => {
    const known = optionsOf(command);
    if (!known) throw new Error(`--for must be one of ${COMMAND_NAMES.join(', ')}, got "${command}"`);
    // Only what the command line says is a flag: yargs fills in defaults and the config layers too.
    const written = givenFlagNames(argv);
    const parsed = new Map(Object.entries(flags).map(([k, v]) => [kebab(k), v]));
    const given: Record<string, unknown> = {};
    for (const name of known.keys) {
      const as = [name, ...(known.aliases?.[name] ?? []).map(kebab)].find((n) => written.has(n) && parsed.has(n));
      if (as !== undefined) given[name] = parsed.get(as);
    }
    return { ...(file ? { file } : {}), settings: resolveSettings(known, { flags: given, ...layersFor(command) }) };
  };

  const configCommand = argv.includes('config') ? (await import('./commands/config.js')).configCommand : undefined;
  const cli = yargs(argv);
  // yargs prints the script for `completion --help` too: asked for help, a plain command shows it.
  if (asksHelp && argv.find((a) => !a.startsWith('-')) === 'completion') cli.command(completionHelpCommand);
  else cli.completion('completion', COMPLETION_DESCRIBE);
  await cli
    .scriptName('mockvideo')
    .config({ ...layers.file, ...layers.env })
    .options(outputOptions)
    .option('config', {
      type: 'string',
      global: true,
      describe: 'Config file (default: mockvideo.config.json or .mjs, looked for from here up)',
    })
    .usage('$0 <command> [options]\n\nMock and record/replay server for the video player backend (/api/g1).')
    .command(COMMAND_NAMES.map((name) => commands.get(name) ?? commandStandIn(name)))
    .command(configCommand ? (configCommand(resolve) as unknown as AnyCommand) : commandStandIn('config'))
    .demandCommand(1, 'Name a command, e.g. "mockvideo serve".')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      const flags = [...(optionsOf(invoked)?.keys ?? Object.keys(outputOptions)), 'config', 'help', 'version'];
      process.stderr.write(
        `${PREFIX} ${withFlagSuggestions(message ?? error?.message ?? '', flags)}\nRun "mockvideo --help" or "mockvideo <command> --help" for usage.\n`,
      );
      process.exit(EXIT.badInput);
    })
    .parseAsync();
}
