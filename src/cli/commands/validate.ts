import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { formatProblem } from '../../errors.js';
import type { NormalisationPolicy } from '../../normalise/index.js';
import { SHIPPED_SCENARIOS_DIR, scenarioFilesAt } from '../../storage/scenario-files.js';
import { EXIT } from '../exit.js';
import { progress, progressCallback } from '../progress.js';
import { normaliseFlags, policyFromArgs } from '../normalise-options.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';

/** Checks one recording folder: every file's format, then every body against the contract. Prints each finding; returns how many. */
async function validateRecordings(dir: string, policy: NormalisationPolicy): Promise<number> {
  const [{ checkRecording, formatFinding }, { readRecordingDir }] = await Promise.all([
    import('../../replay/check.js'),
    import('../../storage/read-recordings.js'),
  ]);
  const { recordings, problems } = await readRecordingDir(dir, progressCallback('Checking recordings'));
  for (const p of problems) process.stdout.write(`✗ ${formatProblem({ ...p, source: join(dir, p.file) })}\n`);
  const findings = recordings.flatMap((r) => checkRecording(r, policy));
  for (const f of findings) process.stdout.write(`✗ ${formatFinding({ ...f, recording: join(dir, f.recording) })}\n`);
  const bad = new Set([...problems.map((p) => p.file), ...findings.map((f) => f.recording)]).size;
  const total = recordings.length + new Set(problems.map((p) => p.file)).size;
  const count = problems.length + findings.length;
  process.stdout.write(
    `${total - bad} of ${total} recording${total === 1 ? '' : 's'} in ${dir} valid${count ? `, ${count} finding${count === 1 ? '' : 's'}` : ''}\n`,
  );
  return count;
}

const builder = (yargs: Argv) =>
  yargs
    .positional('paths', {
      type: 'string',
      array: true,
      describe: "Scenario files or folders, or recording folders (default: the package's scenarios/ folder)",
    })
    .options(normaliseFlags)
    .example('$0 validate', 'Check the shipped scenarios')
    .example('$0 validate my-scenarios/', 'Check every scenario file of a folder')
    .example('$0 validate recordings/session1', 'Check every recording of a folder against the contract');

/**
 * `mockvideo validate [PATH...]`: checks scenario files (or every `*.json` of folders) against the
 * contract, with `extends` resolved against the shipped scenarios; a recording folder (one holding
 * operation folders or recording files) is checked file by file and every recorded body against the
 * contract's schemas. Lists every problem (file, JSON path, rule) and exits 1 when there is any.
 */
export const validateCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.validate,
  builder,
  handler: async (args) => {
    // Loaded when the command runs, not at every start of the CLI.
    const { isRecordingDir } = await import('../../storage/recording-names.js');
    const given = args.paths?.length ? args.paths : [SHIPPED_SCENARIOS_DIR];
    const recordingDirs = given.filter(isRecordingDir);
    const scenarioPaths = given.filter((p) => !recordingDirs.includes(p));
    let count = 0;
    if (recordingDirs.length) {
      const policy = policyFromArgs(args);
      for (const dir of recordingDirs) count += await validateRecordings(dir, policy);
    }
    if (scenarioPaths.length) {
      const [{ checkScenarios, shippedScenarios }, { readScenarioFiles }] = await Promise.all([
        import('../../scenarios/index.js'),
        import('../../storage/read-scenario-files.js'),
      ]);
      const files = scenarioFilesAt(scenarioPaths);
      const bar = progress(files.length, 'Checking scenarios');
      const reads = files.map((file) => {
        const read = readScenarioFiles([file]);
        bar.tick(file);
        return read;
      });
      bar.done();
      const parsed = reads.flatMap((r) => r.scenarios);
      const { problems } = checkScenarios(
        [...shippedScenarios(), ...parsed],
        reads.flatMap((r) => r.broken),
      );
      const all = [...reads.flatMap((r) => r.problems), ...problems];
      for (const problem of all) process.stdout.write(`✗ ${formatProblem(problem)}\n`);
      // Only the files given count as bad: a problem a file causes in a shipped scenario (one that extends it) names that scenario.
      const given = new Set(reads.flatMap((r) => [...r.scenarios, ...r.problems, ...r.broken].map((x) => x.source)));
      const bad = new Set(all.map((p) => p.source).filter((source) => given.has(source))).size;
      process.stdout.write(
        `${files.length - bad} of ${files.length} scenario file${files.length === 1 ? '' : 's'} valid${all.length ? `, ${all.length} problem${all.length === 1 ? '' : 's'}` : ''}\n`,
      );
      count += all.length;
    }
    process.exitCode = count ? EXIT.problems : EXIT.ok;
  },
};
