import type { Argv, CommandModule } from 'yargs';
import { textTable } from '../../text-table.js';
import { COMMAND_NAMES } from '../command-list.js';
import type { Settings } from '../config.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .option('for', {
      choices: COMMAND_NAMES,
      default: 'serve',
      describe: 'The command whose settings to show',
    })
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'Print JSON: {file, settings: [{name, value, source}]}',
    })
    .strict(false)
    .example('$0 config', 'Where does each serve setting come from?')
    .example('MOCKVIDEO_PORT=9000 $0 config --host 0.0.0.0', 'See a flag and an environment variable win');

/**
 * `mockvideo config [--for serve] [flags…]`: prints the settings a command would run with and where
 * each comes from (flag > environment `MOCKVIDEO_*` > config file > default), as `settings` of
 * `main` resolves them.
 */
export function configCommand(settings: Settings): CommandModule<object, BuiltArgs<typeof builder>> {
  return {
    ...COMMAND_HEADINGS.config,
    builder,
    handler: (args) => {
      const flags = Object.fromEntries(
        Object.entries(args).filter(([k]) => !['_', '$0', 'for', 'json', 'config'].includes(k) && !/[A-Z]/.test(k)),
      );
      const resolved = settings.resolve(args.for, flags);
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ file: settings.file ?? null, settings: resolved }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        `config file: ${settings.file ?? '(none found; looked for mockvideo.config.json/.mjs from here up)'}\n`,
      );
      const rows = resolved.map((s) => [s.name, JSON.stringify(s.value) ?? '-', `(${s.source})`]);
      process.stdout.write(`${textTable(rows).join('\n')}\n`);
    },
  };
}
