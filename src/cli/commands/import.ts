import { readFileSync } from 'node:fs';
import type { Har } from 'har-format';
import type { Argv, CommandModule } from 'yargs';
import { MockvideoError, jsonSyntaxProblem } from '../../errors.js';
import { say } from '../../stderr.js';
import { progress, showsProgress } from '../progress.js';
import { normaliseFlags, policyFromArgs } from '../normalise-options.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';
import { pathValue } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .positional('file', { type: 'string', demandOption: true, ...pathValue, describe: 'A HAR 1.2 file' })
    .option('out', {
      type: 'string',
      demandOption: true,
      ...pathValue,
      describe: 'Recording folder to write (created if missing)',
    })
    .options(normaliseFlags)
    .example('$0 import session.har --out recordings/session1', 'Import a HAR saved from Chrome DevTools');

/**
 * `mockvideo import FILE.har --out DIR`: turns the `/api/g1` entries of a HAR 1.2 file into
 * recordings (redaction applies); lists the entries it skipped and why.
 */
export const importCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.import,
  builder,
  handler: async (args) => {
    // Loaded when the command runs, not at every start of the CLI.
    const [{ recordingsFromHar }, { RecordingWriter }, { claimRecordingDir }] = await Promise.all([
      import('../../replay/har.js'),
      import('../../storage/recording-writer.js'),
      import('../../storage/claim-recording-dir.js'),
    ]);
    let har: Har;
    let text = '';
    try {
      text = readFileSync(args.file, 'utf8');
      har = JSON.parse(text) as Har;
    } catch (error) {
      // Never the file's text: V8's message quotes it.
      const code = (error as NodeJS.ErrnoException).code;
      throw new MockvideoError(
        'MV_USAGE',
        `Cannot read the HAR file ${args.file}: ${code ?? jsonSyntaxProblem(error, text)}. Save it again from DevTools ("Save all as HAR with content").`,
      );
    }
    if (!Array.isArray(har?.log?.entries))
      throw new MockvideoError(
        'MV_USAGE',
        `${args.file} is not a HAR file: it has no log.entries. Save it again from DevTools ("Save all as HAR with content").`,
      );
    const imported = recordingsFromHar(har, policyFromArgs(args));
    const release = await claimRecordingDir(args.out);
    try {
      const writer = new RecordingWriter(args.out);
      const bar = progress(imported.recordings.length, 'Importing');
      for (const recording of imported.recordings) {
        const file = await writer.write(recording);
        bar.tick(file);
        if (!showsProgress()) process.stdout.write(`imported ${file}\n`);
      }
      bar.done();
      for (const file of await writer.flush())
        say(`The recording ${file} in ${args.out} may not be on the disk: flushing it failed.`);
    } finally {
      await release();
    }
    for (const skip of imported.skipped) process.stdout.write(`skipped ${skip.url.split('?')[0]}: ${skip.reason}\n`);
    process.stdout.write(
      `Imported ${imported.recordings.length} recording${imported.recordings.length === 1 ? '' : 's'} into ${args.out}, skipped ${imported.skipped.length}${imported.leaks ? `, replaced ${imported.leaks} leaked value${imported.leaks === 1 ? '' : 's'}` : ''}\n`,
    );
  },
};
