import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { formatProblem } from '../../errors.js';
import { checkScenarios, shippedScenarios } from '../../scenarios/index.js';
import { SHIPPED_SCENARIOS_DIR, readScenarioFiles, scenarioFilesAt } from '../../storage/scenario-files.js';
import { EXIT, exitWithError } from '../exit.js';

interface ValidateArgs {
  paths: string[];
}

/**
 * `mockvideo validate [PATH...]`: checks scenario files (or every `*.json` of folders) against the
 * contract, with `extends` resolved against the shipped scenarios. Lists every problem (file, JSON
 * path, rule) and exits 1 when there is any.
 */
export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate [paths..]',
  describe: 'Check scenario files against the contract and list every problem',
  builder: (yargs: Argv) =>
    yargs
      .positional('paths', { type: 'string', array: true, describe: "Scenario files or folders (default: the package's scenarios/ folder)" })
      .example('$0 validate', 'Check the shipped scenarios')
      .example('$0 validate my-scenarios/', 'Check every scenario file of a folder') as unknown as Argv<ValidateArgs>,
  handler: (args: ArgumentsCamelCase<ValidateArgs>) => {
    try {
      const files = scenarioFilesAt(args.paths?.length ? args.paths : [SHIPPED_SCENARIOS_DIR]);
      const read = readScenarioFiles(files);
      const { problems } = checkScenarios([...shippedScenarios(), ...read.scenarios]);
      const all = [...read.problems, ...problems];
      for (const problem of all) process.stdout.write(`✗ ${formatProblem(problem)}\n`);
      const bad = new Set(all.map((p) => p.source)).size;
      process.stdout.write(`${files.length - bad} of ${files.length} scenario file${files.length === 1 ? '' : 's'} valid${all.length ? `, ${all.length} problem${all.length === 1 ? '' : 's'}` : ''}\n`);
      process.exitCode = all.length ? EXIT.problems : EXIT.ok;
    } catch (error) {
      exitWithError(error);
    }
  },
};
