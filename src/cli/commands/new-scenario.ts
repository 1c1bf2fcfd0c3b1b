import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { ScenarioError, UnknownScenarioError } from '../../errors.js';
import type { ParsedScenario } from '../../scenarios/parse.js';
import { isScenarioFileName } from '../../storage/scenario-files.js';
import { newScenarioFile, writeScenarioFile } from '../scenario-file.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { scenariosDirOption, type BuiltArgs } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .positional('name', {
      type: 'string',
      demandOption: true,
      describe: 'Scenario name: lowercase letters, digits, dashes',
    })
    .option('from', { type: 'string', default: 'default', describe: 'The scenario it extends' })
    .option('scenarios-dir', {
      ...scenariosDirOption,
      alias: 'dir',
      default: 'scenarios',
      describe: 'Folder of scenario files to write it to (created if missing)',
    })
    .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' })
    .example('$0 new-scenario gallery-no-ads --from gallery', 'Write scenarios/gallery-no-ads.json extending "gallery"')
    .example(
      '$0 new-scenario slow-plugins --scenarios-dir test/scenarios',
      'Write it to another folder (the one serve --scenarios-dir reads)',
    );

/**
 * `mockvideo new-scenario NAME [--from default] [--scenarios-dir scenarios]` (`--dir` is an alias):
 * writes `DIR/NAME.json`, a scenario that extends another, with `$schema` and no operation (only
 * what the new scenario changes, which is nothing yet), and prints how to add one and serve it. Checks only what it
 * writes and the scenarios it extends (each from `DIR/<name>.json`, else shipped): a broken other
 * file in the folder does not stop it. Refuses to overwrite without `--force`.
 */
export const newScenarioCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS['new-scenario'],
  builder,
  handler: async (args) => {
    // Loaded when the command runs, not at every start of the CLI.
    const [{ checkScenarios, parseScenario, shippedScenarios }, { readScenarioFiles }] = await Promise.all([
      import('../../scenarios/index.js'),
      import('../../storage/read-scenario-files.js'),
    ]);
    const target = await newScenarioFile(args.scenariosDir, args.name, args.force);
    const { dir } = target;
    const shipped = shippedScenarios();
    // --from and the scenarios it extends: the folder's file of that name, else the shipped one.
    const chain: ParsedScenario[] = [];
    for (let name: string | undefined = args.from; name !== undefined && !chain.some((s) => s.name === name);) {
      const file = join(dir, `${name}.json`);
      const own = existsSync(file) ? readScenarioFiles([file]) : undefined;
      if (own?.problems.length) throw new ScenarioError(own.problems);
      const scenario = own?.scenarios[0] ?? shipped.find((s) => s.name === name);
      if (!scenario) {
        const local = existsSync(dir)
          ? readdirSync(dir)
              .filter(isScenarioFileName)
              .map((f) => f.slice(0, -'.json'.length))
          : [];
        throw new UnknownScenarioError(name, [...new Set([...shipped.map((s) => s.name), ...local])].sort());
      }
      chain.push(scenario);
      name = scenario.extends;
    }
    const parent = args.from;
    // Only what it changes: nothing yet (every operation is the parent's until an override is added).
    const scenario = {
      description: `Like ${parent}, except for the operations below. (Say in one line what this scenario is for.)`,
      extends: parent,
      operations: {},
    };
    // What it writes is checked with its parents only.
    const written = parseScenario(args.name, scenario, target.shown);
    const problems = written.ok ? checkScenarios([...shipped, ...chain, written.scenario]).problems : written.problems;
    if (problems.length) throw new ScenarioError(problems);
    const nextSteps = writeScenarioFile(target, scenario);
    process.stdout.write(
      `Created ${target.shown}: extends "${parent}" and changes nothing yet. Add under "operations" only what it changes; object data is merged with "${parent}"'s, so one setting takes one field:\n  "meta/setting": { "data": { "recommend_exit_times": 0 } }\n${nextSteps}`,
    );
  },
};
