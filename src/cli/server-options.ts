/**
 * The flags `serve` and `replay` share, declared once (so `serve --replay DIR` takes them all), the
 * server settings they become ({@link serverSettings}) and the start lines that report them.
 * @module
 */
import type { Options } from 'yargs';
import { parseDuration, parseMoment } from '../clock/clock.js';
import { FAULT_KINDS_TEXT } from '../faults/fault.js';
import { parseLatencySetting } from '../latency/latency.js';
import type { ServerContext } from '../server/context.js';
import type { StartedServers } from '../server/listen/start-servers.js';
import type { ServerSettings } from '../server/modes/device-server.js';
import { STATE_SCOPES } from '../state/client-state.js';
import type { SteeredDevice } from '../state/device-scenarios.js';
import { hostOption, integerFrom, portOption, scenariosDirOption, type ArgsOf, pathValue } from './options.js';
import { dashboardLine, requestLogger, type OutputArgs } from './output.js';
import { verdictOptions } from './verdict-options.js';
import { errorText } from '../errors.js';
import { say } from '../stderr.js';

/**
 * `parse` as a yargs coerce step. yargs passes on only the message of what a coerce step throws (as
 * a new error of its own), so the message goes without the prefix, which the CLI's fail handler adds.
 */
function coerced<T>(parse: (text: string) => T) {
  return (value: unknown) => {
    try {
      return parse(String(value));
    } catch (error) {
      throw new Error(errorText(error), { cause: error });
    }
  };
}

/** A coerce step that names the flag in the message of a parse error (without the prefix, as {@link coerced}). */
function named<T>(flag: string, parse: (text: string) => T) {
  return (value: unknown) => {
    try {
      return parse(String(value));
    } catch (error) {
      throw new Error(`--${flag} ${String(value)}: ${errorText(error)}`, {
        cause: error,
      });
    }
  };
}

/** The flags of `serve` and `replay`, for `yargs.options(...)`: what a new flag of both is added to. */
export const serverOptions = {
  'scenarios-dir': scenariosDirOption,
  port: portOption,
  host: hostOption,
  engine: {
    choices: ['routes', 'msw'] as const,
    default: 'routes' as const,
    describe:
      'routes: the fast Node host; msw: the same answers from the MSW handlers that createHandlers() gives, through the getResponse of msw (slower)',
  },
  watch: {
    type: 'boolean',
    default: true,
    describe:
      'Reload the scenario files (serve) or the recordings (replay) when they change; a broken edit keeps the last good ones serving (--no-watch to turn off)',
  },
  'journal-size': {
    requiresArg: true,
    default: 1000,
    describe: 'Requests the journal keeps (1 to 100000)',
    coerce: integerFrom('journal-size', 1, 100_000),
  },
  'strict-requests': {
    type: 'boolean',
    default: false,
    describe: 'Answer requests that break the contract with 400 (default: serve them, report the findings)',
  },
  fault: {
    type: 'string',
    array: true,
    describe: `Inject a fault, [OPERATION=]KIND[:ARG][@SDEVID]: ${FAULT_KINDS_TEXT}; @SDEVID aims it at one device (repeatable)`,
  },
  'device-scenario': {
    type: 'string',
    array: true,
    requiresArg: true,
    describe:
      "Give one device its own scenario, SDEVID=NAME: its requests answer from NAME instead of the server's (a /scenarios/NAME prefix still wins); replay: with --fallback-scenario, for its misses (repeatable)",
    coerce: (values: unknown[]) => values.map(named('device-scenario', deviceScenarioFlag)),
  },
  'admin-token': {
    type: 'string',
    describe:
      'Allow admin changes from other hosts that send "Authorization: Bearer TOKEN" (loopback is always allowed)',
  },
  state: {
    choices: STATE_SCOPES,
    default: 'client' as const,
    describe:
      'Sequences and fault counts per client (_sdevid, else _anoyid, else address; a new start-up starts them again) or global (one set for the whole server)',
  },
  gap: {
    default: 5,
    requiresArg: true,
    coerce: named('gap', (text) => {
      const seconds = Number(text);
      if (!(seconds > 0 && seconds <= 86_400)) throw new Error('expected a number of seconds above 0 (at most 86400)');
      return seconds;
    }),
    describe:
      'Seconds of quiet that end a start-up of one device (as "mockvideo verify --gap"); its next start-up starts its sequences again',
  },
  clock: {
    requiresArg: true,
    describe:
      'Freeze the clock at this moment (ISO 8601, e.g. 2026-01-31T12:00:00Z, or Unix seconds): "{now…}" times in scenarios and the _ts check read it',
    coerce: named('clock', parseMoment),
  },
  'clock-offset': {
    requiresArg: true,
    describe: 'Shift the clock by a duration, e.g. -2d, +90m, -1y (365 days)',
    coerce: named('clock-offset', parseDuration),
  },
  latency: {
    requiresArg: true,
    describe:
      'Recorded latencies (recordings, stub "latency"): recorded, none, or a factor (0.5 = twice as fast). Default: none for replay, recorded for serve',
    // Its message names the flag already.
    coerce: coerced(parseLatencySetting),
  },
  https: {
    type: 'boolean',
    describe:
      'Serve HTTPS with a certificate generated once and kept in ~/.mockvideo (or $MOCKVIDEO_HOME); HTTPS replaces HTTP on --port unless --https-port is given',
  },
  'https-port': {
    requiresArg: true,
    describe: 'Also serve HTTPS on this port, HTTP staying on --port (0 picks a free port); implies --https',
    coerce: integerFrom('https-port', 0, 65535),
  },
  cert: {
    type: 'string',
    ...pathValue,
    requiresArg: true,
    describe: 'PEM certificate to serve HTTPS with (e.g. from mkcert); needs --key; implies --https',
  },
  key: { type: 'string', ...pathValue, requiresArg: true, describe: 'PEM private key of --cert' },
  'analytics-path': {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'Another path that accepts analytics records (POST), besides /__mockvideo/analytics; repeatable',
    coerce: (values: unknown[]) =>
      values.map((value) => {
        const path = String(value);
        if (!/^\/[A-Za-z0-9._~/-]*$/.test(path))
          throw new Error(
            `--analytics-path must be a URL path like /log/collect (letters, digits, . _ ~ - /), got "${path}"`,
          );
        return path;
      }),
  },
  ...verdictOptions,
} satisfies Record<string, Options>;

/**
 * Reads one `--device-scenario` value, `SDEVID=NAME` (split at the first `=`; SDEVID may also be a
 * name `clientOf` gives, `anoyid:<_anoyid>` or `address:<address>`). Whether NAME exists is checked
 * when the server starts (`createServerContext`).
 * @throws Error without a `=`, or with nothing before or after it.
 */
function deviceScenarioFlag(text: string): SteeredDevice {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1)
    throw new Error('expected SDEVID=NAME, e.g. --device-scenario 5e5e…5e=gallery (the _sdevid the device sends)');
  return { device: text.slice(0, at), scenario: text.slice(at + 1) };
}

/** The parsed values of {@link serverOptions}, with the global output flags. */
export type ServerArgs = ArgsOf<typeof serverOptions> & OutputArgs;

/**
 * The server settings of {@link serverOptions}' values: the one place a flag of both commands
 * becomes a setting. The fault grammar (and zod) loads only when `--fault` is given.
 * @throws FaultError (a usage error) naming a `--fault` that does not parse.
 */
export async function serverSettings(args: ServerArgs): Promise<ServerSettings> {
  const faults = args.fault?.length ? args.fault.map((await import('../faults/plan.js')).parseFaultFlag) : [];
  return {
    scenariosDir: args.scenariosDir,
    port: args.port,
    host: args.host,
    engine: args.engine,
    journalSize: args.journalSize,
    strictRequests: args.strictRequests,
    faults,
    deviceScenarios: args.deviceScenario,
    adminToken: args.adminToken || undefined,
    state: args.state,
    quietGapMs: args.gap * 1000,
    clock: { frozenAt: args.clock, offsetMs: args.clockOffset },
    latency: args.latency,
    https: args.https,
    httpsPort: args.httpsPort,
    certFile: args.cert,
    keyFile: args.key,
    analyticsPaths: args.analyticsPath,
    onRequest: requestLogger(args),
  };
}

/** Prints what follows the first line of `serve` and `replay`: the dashboard, how devices reach the server, the faults planned, the devices given a scenario of their own. */
export function printListening(running: StartedServers, context: ServerContext): void {
  process.stdout.write(dashboardLine(running.url));
  process.stdout.write(`${running.lines.join('\n')}\n`);
  for (const warning of running.warnings) say(warning);
  const faults = context.faults.list();
  if (faults.length)
    process.stdout.write(
      `  faults: ${faults.map((p) => p.spec).join(', ')} (listed at ${running.url}/__mockvideo/faults)\n`,
    );
  const steered = context.deviceScenarios.list();
  if (steered.length)
    process.stdout.write(
      `  device scenarios: ${steered.map((d) => `${d.device}=${d.scenario}`).join(', ')} (listed at ${running.url}/__mockvideo/devices)\n`,
    );
}
