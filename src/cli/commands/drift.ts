import { readFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { MockvideoError } from '../../errors.js';
import { EXIT } from '../exit.js';
import { normaliseFlags, policyFromArgs } from '../normalise-options.js';
import {
  insecureUpstreamOption,
  insecureUpstreamWarning,
  numberFrom,
  scenariosDirOption,
  upstreamTimeoutOption,
  upstreamUrl,
  type BuiltArgs,
  pathList,
  pathValue,
} from '../options.js';
import { recordingsOf } from '../recording-folder.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { say } from '../../stderr.js';

const builder = (yargs: Argv) =>
  yargs
    .positional('dirs', {
      type: 'string',
      array: true,
      ...pathList,
      describe: 'A recording folder (with --upstream), or two to compare offline',
    })
    .option('upstream', {
      type: 'string',
      describe: 'The live service, e.g. https://api.example.com (the only host requests go to)',
    })
    .option('scenario', {
      type: 'string',
      describe: "Compare this scenario's operations (with --upstream) instead of a recording folder",
    })
    .option('scenarios-dir', scenariosDirOption)
    .option('query-file', {
      type: 'string',
      ...pathValue,
      describe:
        'File with the real _st and identifiers as a query string or a client request line (also: MOCKVIDEO_QUERY, MOCKVIDEO_ST)',
    })
    .option('upstream-timeout', {
      ...upstreamTimeoutOption,
      describe: 'Seconds the live service has to answer each request completely, headers and body',
    })
    .option('insecure-upstream', {
      ...insecureUpstreamOption,
      describe: 'Accept an https upstream whose certificate does not verify (self-signed, unknown CA, wrong host name)',
    })
    .option('concurrency', {
      requiresArg: true,
      default: 2,
      describe: 'Live requests in flight at once',
      coerce: numberFrom('concurrency', 'a positive integer', (n) => Number.isInteger(n) && n > 0),
    })
    .option('rate', {
      requiresArg: true,
      default: 5,
      describe: 'Live requests started per second at most',
      coerce: numberFrom('rate', 'a positive number', (n) => Number.isFinite(n) && n > 0),
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
    .example(
      '$0 drift --upstream https://api.example.com --query-file client.query recordings/session1',
      'Are the recordings still shaped like the live service?',
    )
    .example(
      '$0 drift --upstream https://api.example.com --scenario gallery',
      'Is the gallery scenario still shaped like the live service?',
    )
    .example('$0 drift recordings/yesterday recordings/today', 'Compare two recording folders offline')
    .options(normaliseFlags)
    // The lists of secret and identity parameters matter here; what is kept in stored files does not.
    .hide('keep-identifiers')
    .hide('redact-header');

/**
 * `mockvideo drift`: compares mock data with the live service, structurally and noise-aware.
 * - `drift --upstream URL DIR`: replays each recorded request of DIR to URL (twice, to learn noise);
 * - `drift --upstream URL --scenario NAME`: the same for a scenario's operations, with the client's query;
 * - `drift A B`: compares two recording folders offline.
 * Exits 1 when something other than noise differs (or the live service gave no answer), 0 otherwise.
 */
export const driftCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.drift,
  builder,
  handler: async (args) => {
    const dirs = args.dirs ?? [];
    const policy = policyFromArgs(args);
    // Loaded when drift runs, not at every start of the CLI.
    const [
      { driftLive, driftOffline, missingValues, targetsFromRecordings, targetsFromScenario },
      { formatDriftReport, driftReportJson },
      { generatedIdentifier, liveValues },
      { valueScrubber },
    ] = await Promise.all([
      import('../../drift/drift.js'),
      import('../../drift/report.js'),
      import('../../drift/live-query.js'),
      import('../../normalise/scrub.js'),
    ]);
    let report;
    let scrub = (text: string) => text;
    if (args.upstream === undefined) {
      if (args.scenario !== undefined)
        throw new MockvideoError(
          'MV_USAGE',
          '--scenario needs --upstream: the live service to compare the scenario with.',
        );
      if (dirs.length !== 2)
        throw new MockvideoError(
          'MV_USAGE',
          `drift compares two recording folders offline, or a folder or scenario with --upstream URL; got ${dirs.length} folder(s). Run "mockvideo drift --help".`,
        );
      report = driftOffline(await recordingsOf(dirs[0]!), await recordingsOf(dirs[1]!));
    } else {
      const upstream = upstreamUrl(args.upstream);
      if (args.insecureUpstream) say(insecureUpstreamWarning(upstream));
      if ((args.scenario === undefined) === (dirs.length !== 1))
        throw new MockvideoError('MV_USAGE', 'With --upstream, give either one recording folder or --scenario NAME.');
      let queryText: string | undefined;
      if (args.queryFile !== undefined) {
        try {
          queryText = readFileSync(args.queryFile, 'utf8');
        } catch (error) {
          throw new MockvideoError(
            'MV_USAGE',
            `Cannot read --query-file ${args.queryFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Give a file holding the real query, e.g. _st=...&_sdevid=...`,
          );
        }
      }
      const values = liveValues([queryText, process.env.MOCKVIDEO_QUERY], process.env.MOCKVIDEO_ST);
      scrub = valueScrubber(values, policy);
      let targets;
      let notes: string[] = [];
      if (args.scenario !== undefined) {
        const { loadScenarioCatalog } = await import('../../storage/load-catalog.js');
        targets = targetsFromScenario(
          loadScenarioCatalog(args.scenariosDir).get(args.scenario),
          values,
          policy,
          new URL(upstream).origin,
        );
      } else ({ targets, notes } = targetsFromRecordings(await recordingsOf(dirs[0]!), values, policy));
      // Only the token is a credential: an identifier not given is made up in the seed's format, and the report says so.
      for (const name of missingValues(targets)) {
        const generated = generatedIdentifier(name);
        if (!generated) continue;
        values.set(name, generated.value);
        notes.push(
          `${name} was not given: drift sent a generated one (${generated.format}, a made-up device), so answers that depend on the device may differ from yours; give the real value in --query-file to compare your device.`,
        );
      }
      const missing = missingValues(targets);
      if (missing.length) {
        throw new MockvideoError(
          'MV_USAGE',
          `The live requests need the real value of ${missing.join(', ')}, which recordings and scenarios never hold. Give it in --query-file (e.g. ${missing.map((m) => `${m}=...`).join('&')}) or MOCKVIDEO_QUERY; the token alone may come from MOCKVIDEO_ST (identifiers not given are generated).`,
        );
      }
      const { createLiveClient } = await import('../../drift/live-client.js');
      const client = createLiveClient({
        upstream,
        timeoutSeconds: args.upstreamTimeout,
        concurrency: args.concurrency,
        rate: args.rate,
        insecure: args.insecureUpstream,
      });
      try {
        report = await driftLive(targets, client, notes, scrub);
      } finally {
        await client.close();
      }
    }
    // A live answer may echo the token or an identifier: nothing printed holds one.
    process.stdout.write(scrub(args.json ? driftReportJson(report) : formatDriftReport(report)));
    process.exitCode = report.ok ? EXIT.ok : EXIT.problems;
  },
};
