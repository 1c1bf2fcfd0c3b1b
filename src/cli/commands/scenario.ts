import type { Argv, CommandModule } from 'yargs';
import { MockvideoError, errorText, formatProblem } from '../../errors.js';
import { EXIT } from '../exit.js';
import { recordingsOf } from '../recording-folder.js';
import { newScenarioFile, writeScenarioFile } from '../scenario-file.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';
import { say } from '../../stderr.js';
import { pathValue } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .positional('dir', { type: 'string', demandOption: true, ...pathValue, describe: 'Recording folder' })
    .option('name', {
      type: 'string',
      demandOption: true,
      describe: 'Scenario name: lowercase letters, digits, dashes',
    })
    .option('device', {
      type: 'string',
      describe: "Only this device's session: its _sdevid, or the start of it (recordings made with --keep-identifiers)",
    })
    .option('recorded-origin', {
      type: 'string',
      array: true,
      describe:
        'Origin of the recorded service whose URLs become {origin}, e.g. the --upstream it was recorded from (repeatable; URLs to /__mockvideo/ media are found by themselves)',
    })
    .option('scenarios-dir', {
      type: 'string',
      default: 'scenarios',
      describe: 'Folder to write it to (created if missing)',
    })
    .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' })
    .example('$0 scenario from-recordings recordings/qa-1 --name qa-1', 'Write scenarios/qa-1.json from a QA session');

/** How many operations are in the file, and which were left out and why: `2 operations from the recordings; 4 left out, inherited from "default": …`. */
function madeSummary({ file, leftOut }: import('../../scenarios/from-recordings.js').ScenarioFromRecordings): string {
  const n = Object.keys(file.operations).length;
  const reasons = [
    ['same', `recorded as "${file.extends}" answers them`],
    ['not-servable', 'recorded, but no recording of it can be served: see the notes'],
    ['not-recorded', 'not recorded'],
  ] as const;
  const why = reasons
    .map(([reason, text]) => [leftOut.filter((l) => l.why === reason).map((l) => l.operation), text] as const)
    .filter(([ops]) => ops.length)
    .map(([ops, text]) => `${ops.join(', ')} (${text})`);
  const from = `${n} operation${n === 1 ? '' : 's'} from the recordings`;
  if (!leftOut.length) return from;
  return `${from}; ${leftOut.length} left out${file.extends ? `, inherited from "${file.extends}"` : ''}: ${why.join(', ')}`;
}

/**
 * `mockvideo scenario from-recordings DIR --name NAME [--device SDEVID]`: writes
 * `scenarios/NAME.json` from a recording folder (see `scenarioFromRecordings`), prints what was
 * left out and how to check and serve it. Exits 1 when the file it wrote does not validate (the
 * recording breaks the contract): the problems are listed, the file is there to edit.
 */
const fromRecordingsCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  command: 'from-recordings <dir>',
  describe: 'Write an editable scenario file from a recording folder',
  builder,
  handler: async (args) => {
    // Loaded when the command runs, not at every start of the CLI.
    const [{ shippedScenarios }, { scenarioFromRecordings }, { readRecordedOrigins }] = await Promise.all([
      import('../../scenarios/index.js'),
      import('../../scenarios/from-recordings.js'),
      import('../../storage/recorded-origins.js'),
    ]);
    const target = await newScenarioFile(args.scenariosDir, args.name, args.force, '--name ');
    if (shippedScenarios().some((shipped) => shipped.name === args.name)) {
      throw new MockvideoError(
        'MV_USAGE',
        `--name "${args.name}" is the name of a shipped scenario: a file of that name would replace it for every scenario that extends it. Pick another --name, e.g. "${args.name}-recorded".`,
      );
    }
    const badOrigin = args.recordedOrigin?.find((origin) => !URL.canParse(origin));
    if (badOrigin !== undefined)
      throw new MockvideoError(
        'MV_USAGE',
        `--recorded-origin must be a URL like https://api.example.com, got "${badOrigin}".`,
      );
    const recordings = await recordingsOf(args.dir);
    let made;
    try {
      made = scenarioFromRecordings(recordings, {
        name: args.name,
        shipped: shippedScenarios(),
        from: args.dir,
        ...(args.device !== undefined ? { device: args.device } : {}),
        origins: [...(args.recordedOrigin ?? []), ...readRecordedOrigins(args.dir)],
      });
    } catch (error) {
      throw new MockvideoError('MV_USAGE', `Cannot make a scenario from ${args.dir}: ${errorText(error)}.`);
    }
    const { shown } = target;
    const nextSteps = writeScenarioFile(target, made.file);
    process.stdout.write(`Created ${shown}: ${madeSummary(made)}.\n`);
    for (const note of made.notes) process.stdout.write(`note: ${note}\n`);
    if (made.problems.length) {
      const list = made.problems.map((p) => `  ${formatProblem({ ...p, source: shown })}`).join('\n');
      say(
        `${shown} does not validate: the recordings break the contract there:\n${list}\nEdit the file, then run "mockvideo validate ${shown}".`,
      );
      process.exitCode = EXIT.problems;
      return;
    }
    process.stdout.write(nextSteps);
  },
};

/** `mockvideo scenario <action>`: making scenario files (`from-recordings`). */
export const scenarioCommand: CommandModule<object, object> = {
  ...COMMAND_HEADINGS.scenario,
  builder: (yargs: Argv) =>
    yargs
      .command(fromRecordingsCommand as unknown as CommandModule)
      .demandCommand(1, 'Name an action, e.g. "mockvideo scenario from-recordings DIR --name NAME".'),
  handler: () => undefined,
};
