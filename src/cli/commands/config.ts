import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { textTable } from '../../text-table.js';
import type { ResolvedSetting } from '../config.js';

interface ConfigArgs {
  for: string;
  json: boolean;
}

/**
 * `mockvideo config [--for serve] [flags…]`: prints the settings a command would run with and where
 * each comes from (flag > environment `MOCKVIDEO_*` > config file > default). The resolution itself
 * happens in `main`, which hands it over with `resolve`.
 */
export function configCommand(
  resolve: (command: string, flags: Record<string, unknown>) => { file?: string; settings: ResolvedSetting[] },
): CommandModule<object, ConfigArgs> {
  return {
    command: 'config',
    describe: 'Print the resolved settings of a command and where each comes from',
    builder: (yargs: Argv) =>
      yargs
        .option('for', { type: 'string', default: 'serve', describe: 'The command whose settings to show' })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'Print JSON: {file, settings: [{name, value, source}]}',
        })
        .strict(false)
        .example('$0 config', 'Where does each serve setting come from?')
        .example(
          'MOCKVIDEO_PORT=9000 $0 config --host 0.0.0.0',
          'See a flag and an environment variable win',
        ) as unknown as Argv<ConfigArgs>,
    handler: (args: ArgumentsCamelCase<ConfigArgs>) => {
      const flags = Object.fromEntries(
        Object.entries(args).filter(([k]) => !['_', '$0', 'for', 'json', 'config'].includes(k) && !/[A-Z]/.test(k)),
      );
      const { file, settings } = resolve(args.for, flags);
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ file: file ?? null, settings }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        `config file: ${file ?? '(none found; looked for mockvideo.config.json/.mjs from here up)'}\n`,
      );
      const rows = settings.map((s) => [s.name, JSON.stringify(s.value) ?? '-', `(${s.source})`]);
      process.stdout.write(`${textTable(rows).join('\n')}\n`);
    },
  };
}
