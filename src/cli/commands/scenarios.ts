import type { Argv, CommandModule } from 'yargs';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { textTable } from '../../text-table.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { scenariosDirOption, type BuiltArgs } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .option('scenarios-dir', scenariosDirOption)
    .option('json', { type: 'boolean', default: false, describe: 'Print JSON: [{name, description, extends}]' })
    .example('$0 scenarios', 'List the scenarios');

/** `mockvideo scenarios`: lists the scenario names with their one-line descriptions. */
export const scenariosCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.scenarios,
  builder,
  handler: async (args) => {
    const list = (await loadServeCatalog(args.scenariosDir)).list();
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify(
          list.map((s) => ({ name: s.name, description: s.description, extends: s.ancestry[0] ?? null })),
          null,
          2,
        )}\n`,
      );
      return;
    }
    process.stdout.write(`${textTable(list.map((s) => [s.name, s.description])).join('\n')}\n`);
  },
};
