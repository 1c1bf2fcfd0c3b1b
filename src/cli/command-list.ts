import type { CommandModule } from 'yargs';

/** Names a table of loaders by their keys, the loaded modules' types left open. */
const loaders = <K extends string>(table: Record<K, () => Promise<unknown>>) => table;

/**
 * The commands that take settings (all but `config`), in the order `mockvideo --help` lists them, each
 * with the loader of its module: a start loads only the modules of the commands named on its command
 * line (see {@link loadCommands}).
 */
const LOADERS = loaders({
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  scenarios: async () => (await import('./commands/scenarios.js')).scenariosCommand,
  validate: async () => (await import('./commands/validate.js')).validateCommand,
  verify: async () => (await import('./commands/verify.js')).verifyCommand,
  'new-scenario': async () => (await import('./commands/new-scenario.js')).newScenarioCommand,
  record: async () => (await import('./commands/record.js')).recordCommand,
  replay: async () => (await import('./commands/replay.js')).replayCommand,
  import: async () => (await import('./commands/import.js')).importCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  drift: async () => (await import('./commands/drift.js')).driftCommand,
  scenario: async () => (await import('./commands/scenario.js')).scenarioCommand,
  fuzz: async () => (await import('./commands/fuzz.js')).fuzzCommand,
});

/** A command that takes settings, by the name typed after `mockvideo`. */
export type CommandName = keyof typeof LOADERS;

/** The names of the commands that take settings, in the order `mockvideo --help` lists them. */
export const COMMAND_NAMES = Object.keys(LOADERS) as CommandName[];

/** What yargs needs of a command it does not run: the command string (name and positionals) and the line of `mockvideo --help`. */
export interface CommandHeading {
  command: string;
  describe: string;
}

/**
 * Each command's heading, the same as its module's `command` and `describe` (`command-list.test.ts`
 * holds that): enough for the top-level help, completion and "did you mean" suggestions, so that a
 * start loads only the modules of the commands named on its command line (see {@link loadCommands}).
 */
export const COMMAND_HEADINGS: Readonly<Record<CommandName | 'config', CommandHeading>> = {
  serve: { command: 'serve', describe: 'Serve the six /api/g1 operations from a named scenario' },
  scenarios: { command: 'scenarios', describe: 'List the scenarios with one-line descriptions' },
  validate: {
    command: 'validate [paths..]',
    describe: 'Check scenario files or recording folders against the contract and list every problem',
  },
  verify: {
    command: 'verify',
    describe: "Check a running server's journal against the contract's call rules (exit 1 on a failure)",
  },
  'new-scenario': {
    command: 'new-scenario <name>',
    describe: 'Write a new scenario file that extends another, ready to edit',
  },
  record: { command: 'record', describe: 'Proxy the real service and record every exchange into a folder' },
  replay: {
    command: 'replay <dir>',
    describe: 'Serve a recording folder: exact matches, else the nearest recording or a near-miss report',
  },
  import: {
    command: 'import <file>',
    describe: 'Turn a HAR file (DevTools, Playwright, Charles, mitmproxy) into recordings',
  },
  export: { command: 'export <dir>', describe: 'Write a recording folder as a HAR 1.2 file' },
  drift: {
    command: 'drift [dirs..]',
    describe:
      'Compare recordings or a scenario with the live service (or two recording folders) by structure; exit 1 on drift',
  },
  scenario: { command: 'scenario <action>', describe: 'Make scenario files: scenario from-recordings DIR --name NAME' },
  fuzz: {
    command: 'fuzz <action> <case>',
    describe: 'Print a generated answer by its case: fuzz show 42:meta/plugin:3',
  },
  config: { command: 'config', describe: 'Print the resolved settings of a command and where each comes from' },
};

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
