import type { CommandModule } from 'yargs';
import { COMMAND_HEADINGS } from './command-headings.js';

/**
 * The commands that take settings (all but `config`), in the order `mockvideo --help` lists them, each
 * with the loader of its module: a start loads only the modules of the commands named on its command
 * line (see {@link loadCommands}).
 */
const LOADERS = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  scenarios: async () => (await import('./commands/scenarios.js')).scenariosCommand,
  validate: async () => (await import('./commands/validate.js')).validateCommand,
  verify: async () => (await import('./commands/verify.js')).verifyCommand,
  'new-scenario': async () => (await import('./commands/new-scenario.js')).newScenarioCommand,
  record: async () => (await import('./commands/record.js')).recordCommand,
  replay: async () => (await import('./commands/replay.js')).replayCommand,
  bundle: async () => (await import('./commands/bundle.js')).bundleCommand,
  import: async () => (await import('./commands/import.js')).importCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  drift: async () => (await import('./commands/drift.js')).driftCommand,
  scenario: async () => (await import('./commands/scenario.js')).scenarioCommand,
  fuzz: async () => (await import('./commands/fuzz.js')).fuzzCommand,
} satisfies Record<string, () => Promise<unknown>>;

/** A command that takes settings, by the name typed after `mockvideo`. */
export type CommandName = keyof typeof LOADERS;

/** The names of the commands that take settings, in the order `mockvideo --help` lists them. */
export const COMMAND_NAMES = Object.keys(LOADERS) as CommandName[];

/** A command module, options and arguments left open. */
export type AnyCommand = CommandModule<object, never>;

/** True when `name` is one of {@link COMMAND_NAMES}. */
export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

/**
 * The modules of the commands `names`, loaded in parallel, by name. yargs runs the builder and handler
 * of the command named by the first positional argument only, so a start needs the modules of the
 * commands whose names occur on its command line; the others are registered with their heading.
 */
export async function loadCommands(names: readonly CommandName[]): Promise<Map<CommandName, AnyCommand>> {
  const modules = await Promise.all(names.map((name) => LOADERS[name]()));
  return new Map(names.map((name, i) => [name, modules[i] as unknown as AnyCommand]));
}

/**
 * The stand-in yargs registers for a command whose module was not loaded: its heading, no options,
 * and a handler that never runs (yargs runs only the command named on the command line, which is
 * loaded); should it run, it says so instead of doing nothing.
 */
export function commandStandIn(name: CommandName | 'config'): AnyCommand {
  return {
    ...COMMAND_HEADINGS[name],
    handler: () => {
      throw new Error(`mockvideo did not load the module of the command "${name}"`);
    },
  };
}
