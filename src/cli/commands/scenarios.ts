import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { textTable } from '../../text-table.js';
import { scenariosDirOption } from '../options.js';

interface ScenariosArgs {
  'scenarios-dir'?: string;
  json: boolean;
}

/** `mockvideo scenarios`: lists the scenario names with their one-line descriptions. */
export const scenariosCommand: CommandModule<object, ScenariosArgs> = {
  command: 'scenarios',
  describe: 'List the scenarios with one-line descriptions',
  builder: (yargs: Argv) =>
    yargs
      .option('scenarios-dir', scenariosDirOption)
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON: [{name, description, extends}]' })
      .example('$0 scenarios', 'List the scenarios') as unknown as Argv<ScenariosArgs>,
  handler: async (args: ArgumentsCamelCase<ScenariosArgs>) => {
    const list = (await loadServeCatalog(args.scenariosDir as string | undefined)).list();
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
