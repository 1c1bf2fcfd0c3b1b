import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { createScenarioHandlers } from '../../handlers/index.js';
import { createApp } from '../../server/app.js';
import { deviceRoutes } from '../../server/device-routes.js';
import { startServers } from '../../server/start-servers.js';
import { formatLogLine } from '../../server/request-log.js';
import { loadScenarioCatalog } from '../../storage/load-catalog.js';
import { deviceOptions, type DeviceArgs } from '../device-options.js';
import { exitWithError } from '../exit.js';
import { hostOption, portOption, scenariosDirOption } from '../options.js';
import { DEFAULT_REPLAY_POLICY, runReplay } from './replay.js';

interface ServeArgs extends DeviceArgs {
  scenario: string;
  'scenarios-dir'?: string;
  port: number;
  host: string;
  replay?: string;
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
      .option('scenario', { alias: 's', type: 'string', default: 'default', describe: 'Scenario to serve (see "mockvideo scenarios")' })
      .option('scenarios-dir', scenariosDirOption)
      .option('port', portOption)
      .option('host', hostOption)
      .option('replay', { type: 'string', normalize: true, describe: 'Serve this recording folder instead (same as "mockvideo replay DIR")' })
      .options(deviceOptions)
      .example('$0 serve', 'Serve the default scenario on http://127.0.0.1:8787')
      .example('$0 serve --scenario gallery --port 0', 'Serve "gallery" on a free port')
      .example('$0 serve --host 0.0.0.0', 'Serve devices on the network (an Android emulator uses http://10.0.2.2:8787)')
      .example('$0 serve --https --https-port 8443', 'HTTP on 8787 and HTTPS on 8443 with a generated certificate') as unknown as Argv<ServeArgs>,
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    try {
      if (args.replay) return await runReplay({ dir: args.replay, match: 'nearest', policy: DEFAULT_REPLAY_POLICY, port: args.port, host: args.host });
      const catalog = loadScenarioCatalog(args.scenariosDir as string | undefined);
      const scenario = catalog.get(args.scenario).name;
      const handlers = createScenarioHandlers(catalog, { activeScenario: () => scenario });
      const before = deviceRoutes({ catalog, activeScenario: () => scenario });
      const app = createApp({ handlers, before, onRequest: (entry) => process.stdout.write(`${formatLogLine(entry)}\n`) });
      const running = await startServers(app, { port: args.port, host: args.host, https: args.https, httpsPort: args.httpsPort as number | undefined, certFile: args.cert, keyFile: args.key });
      process.stdout.write(`mockvideo serving scenario "${scenario}" at ${running.url}\n`);
      process.stdout.write(`  operations: ${running.url}/api/g1/<operation>   scenarios: ${catalog.names.join(', ')}\n`);
      process.stdout.write(`${running.lines.join('\n')}\n`);
      let stopping = false;
      const stop = () => {
        if (stopping) process.exit(0);
        stopping = true;
        running.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    } catch (error) {
      exitWithError(error);
    }
  },
};
