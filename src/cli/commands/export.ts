import type { Argv, CommandModule } from 'yargs';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { BuiltArgs } from '../options.js';
import { progressCallback } from '../progress.js';
import { recordingsOf } from '../recording-folder.js';
import { pathValue } from '../options.js';

const builder = (yargs: Argv) =>
  yargs
    .positional('dir', { type: 'string', demandOption: true, ...pathValue, describe: 'Recording folder' })
    .option('har', { type: 'string', demandOption: true, ...pathValue, describe: 'HAR file to write' })
    .option('base-url', {
      type: 'string',
      default: 'http://localhost:8787',
      describe: 'Origin of the request URLs in the HAR',
    })
    .example('$0 export recordings/session1 --har session1.har', 'Open session1.har in DevTools → Network → Import');

/** `mockvideo export DIR --har FILE.har`: writes a HAR 1.2 file of a recording folder (opens in Chrome DevTools). */
export const exportCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.export,
  builder,
  handler: async (args) => {
    // Loaded when the command runs, not at every start of the CLI.
    const { harFromRecordings } = await import('../../replay/har.js');
    const recordings = await recordingsOf(args.dir, progressCallback('Reading recordings'));
    const sorted = [...recordings].sort(
      (a, b) => a.recording.recordedAt.localeCompare(b.recording.recordedAt) || a.name.localeCompare(b.name),
    );
    const har = harFromRecordings(sorted, { baseUrl: args.baseUrl, pageTitle: `mockvideo export ${args.dir}` });
    const { writeFileAtomically } = await import('../../storage/write-file-atomically.js');
    await writeFileAtomically(args.har, `${JSON.stringify(har, null, 2)}\n`);
    process.stdout.write(
      `Exported ${recordings.length} recording${recordings.length === 1 ? '' : 's'} to ${args.har}\n`,
    );
  },
};
