import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { SHIPPED_SCENARIOS_DIR } from '../../storage/scenario-files.js';
import { startServeServer, type Engine } from '../../server/modes/serve.js';
import { startServers, type StartedServers } from '../../server/listen/start-servers.js';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { deviceOptions, type DeviceArgs } from '../device-options.js';
import { exitWithError, stopOnSignals } from '../exit.js';
import { dashboardLine, logFindings, requestLogger, type OutputArgs } from '../output.js';
import { MockvideoError } from '../../errors.js';
import { liveStateOptions, liveStateSettings, type LiveStateArgs } from '../live-state-options.js';
import { engineOption, hostOption, portOption, scenariosDirOption } from '../options.js';
import { stateOptions, stateSettings, type StateArgs } from '../state-options.js';
import { fuzzAnswersOf, fuzzOptions, type FuzzArgs } from './fuzz.js';

interface ServeArgs extends DeviceArgs, StateArgs, FuzzArgs, LiveStateArgs {
  scenario: string;
  'scenarios-dir'?: string;
  port: number;
  host: string;
  replay?: string;
  watch: boolean;
  engine: string;
}

/**
 * The flags given with `serve --replay DIR` that replay cannot honour, by name (a non-default
 * `--scenario`, `--https`, `--https-port`, `--cert`, `--key`, `--analytics-path`): refused, never
 * silently ignored. Every other flag of `serve` is one `replay` takes too.
 */
export function unsupportedWithReplay(args: Pick<ServeArgs, 'scenario' | keyof DeviceArgs>): string[] {
  const refused: string[] = [];
  if (args.scenario !== 'default') refused.push('--scenario');
  if (args.https) refused.push('--https');
  if (args['https-port'] !== undefined) refused.push('--https-port');
  if (args.cert !== undefined) refused.push('--cert');
  if (args.key !== undefined) refused.push('--key');
  if (args['analytics-path']?.length) refused.push('--analytics-path');
  return refused;
}

/**
 * `mockvideo serve`: serves the six operations from a named scenario until SIGINT or SIGTERM.
 * The first line printed carries the URL `http://HOST:PORT`; then one line per request.
 * Exit code 2 for an unknown or invalid scenario or a bad flag.
 */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the six /api/g1 operations from a named scenario',
  builder: (yargs: Argv) =>
    yargs
      .option('scenario', {
        alias: 's',
        type: 'string',
        default: 'default',
        describe: 'Scenario to serve (see "mockvideo scenarios")',
      })
      .option('scenarios-dir', scenariosDirOption)
      .option('port', portOption)
      .option('host', hostOption)
      .option('replay', {
        type: 'string',
        normalize: true,
        describe: 'Serve this recording folder instead (same as "mockvideo replay DIR")',
      })
      .options(liveStateOptions)
      .option('watch', {
        type: 'boolean',
        default: true,
        describe:
          'Reload scenario files when they change; a broken edit keeps the last good version serving (--no-watch to turn off)',
      })
      .option('engine', engineOption)
      .options(deviceOptions)
      .options(stateOptions)
      .options(fuzzOptions)
      .example('$0 serve', 'Serve the default scenario on http://127.0.0.1:8787')
      .example('$0 serve --scenario gallery --port 0', 'Serve "gallery" on a free port')
      .example('$0 serve --fault meta/setting=status:500', 'Every meta/setting request answers HTTP 500')
      .example(
        '$0 serve --fuzz 42',
        'Answer every operation with generated edge cases from seed 42 (case in x-mockvideo-fuzz)',
      )
      .example(
        '$0 serve --host 0.0.0.0',
        'Serve devices on the network (an Android emulator uses http://10.0.2.2:8787)',
      )
      .example(
        '$0 serve --https --https-port 8443',
        'HTTP on 8787 and HTTPS on 8443 with a generated certificate',
      ) as unknown as Argv<ServeArgs>,
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    try {
      const fuzzing = await fuzzAnswersOf(args);
      const live = await liveStateSettings(args);
      if (args.replay) {
        const refused = unsupportedWithReplay(args);
        if (refused.length)
          throw new MockvideoError(
            'MV_USAGE',
            `serve --replay does not take ${refused.join(', ')}: replay serves the recordings over HTTP only. Drop ${refused.length === 1 ? 'it' : 'them'}, or serve scenarios without --replay.`,
          );
        const { DEFAULT_REPLAY_POLICY, runReplay } = await import('./replay.js');
        const server = {
          dir: args.replay,
          match: 'nearest' as const,
          policy: DEFAULT_REPLAY_POLICY,
          port: args.port,
          host: args.host,
          engine: args.engine as Engine,
          ...stateSettings(args),
          ...live,
        };
        return await runReplay({
          server: args.scenariosDir ? { ...server, scenariosDir: args.scenariosDir as string } : server,
          output: args as unknown as OutputArgs,
          watch: args.watch,
        });
      }
      // The scenario parser, the fault schema and zod load only for scenario files of the user's own and --fault flags.
      const catalog = await loadServeCatalog(args.scenariosDir as string | undefined);
      const { faults } = live;
      let started: StartedServers | undefined;
      const watchedDir = args.watch
        ? ((args.scenariosDir as string | undefined) ??
          (existsSync(SHIPPED_SCENARIOS_DIR) ? SHIPPED_SCENARIOS_DIR : undefined))
        : undefined;
      const onRequest = requestLogger(args as unknown as OutputArgs);
      const { running, context } = await startServeServer({
        // Loaded with the HTTP host, on the first request that is not the device-facing surface.
        before: async (live) => {
          const [{ analyticsRoutes }, { AnalyticsStore }] = [
            await import('../../server/admin/analytics-routes.js'),
            await import('../../analytics/index.js'),
          ];
          return [
            analyticsRoutes(new AnalyticsStore(), (args.analyticsPath as string[] | undefined) ?? [], {
              adminToken: () => live.adminToken,
            }),
          ];
        },
        engine: args.engine as Engine,
        listen: async (app) =>
          (started = await startServers(app, {
            port: args.port,
            host: args.host,
            https: args.https,
            httpsPort: args.httpsPort as number | undefined,
            certFile: args.cert,
            keyFile: args.key,
          })),
        catalog,
        scenario: args.scenario,
        faults,
        ...stateSettings(args),
        ...live,
        port: args.port,
        host: args.host,
        ...(onRequest ? { onRequest } : {}),
        ...(fuzzing ? { fuzz: fuzzing.fuzz } : {}),
        ...(watchedDir
          ? {
              watch: {
                dir: watchedDir,
                onReload: (outcome) => {
                  if (outcome.ok)
                    process.stdout.write(`scenarios reloaded from ${watchedDir}: version ${outcome.version} is live\n`);
                  else
                    process.stderr.write(
                      `${outcome.error.message}\n[mockvideo] Kept serving the last good scenarios (version ${outcome.version}).\n`,
                    );
                },
              },
            }
          : {}),
      });
      context.deviceUrls = started!.deviceUrls;
      logFindings(args as unknown as OutputArgs, context.journal);
      const scenario = context.active.scenario;
      process.stdout.write(`mockvideo serving scenario "${scenario}" at ${running.url}\n`);
      process.stdout.write(
        `  operations: ${running.url}/api/g1/<operation>   scenarios: ${catalog.names.join(', ')}\n`,
      );
      if (fuzzing)
        process.stdout.write(
          `  fuzz: seed ${fuzzing.seed}${args.fuzzCase ? `, case ${args.fuzzCase}` : ''}: every operation gets a generated answer (case in x-mockvideo-fuzz; mockvideo fuzz show <case>)\n`,
        );
      process.stdout.write(dashboardLine(running.url));
      process.stdout.write(`${started!.lines.join('\n')}\n`);
      for (const warning of started!.warnings) process.stderr.write(`${warning}\n`);
      const active = context.faults.list();
      if (active.length)
        process.stdout.write(
          `  faults: ${active.map((p) => p.spec).join(', ')} (listed at ${running.url}/__mockvideo/faults)\n`,
        );
      stopOnSignals(() => void running.close().then(() => process.exit(0)));
    } catch (error) {
      exitWithError(error);
    }
  },
};
