import { createRequire } from 'node:module';
import type { SonicBoom } from 'sonic-boom';
import pc from 'picocolors';
import type { Options } from 'yargs';
import type { Journal } from '../journal/index.js';
import type { ArgsOf } from './options.js';
import { formatLogLine, type RequestLogEntry } from '../server/host/request-log.js';

/** The global output flags, for the yargs root. */
export const outputOptions = {
  log: {
    choices: ['text', 'json'] as const,
    default: 'text' as const,
    global: true,
    describe: 'Request log format: one line of text, or one JSON object per request (for log tools)',
  },
  quiet: {
    type: 'boolean',
    default: false,
    global: true,
    describe: 'Print only the start line and errors, no request log',
  },
  verbose: { type: 'boolean', default: false, global: true, describe: "Also print each request's contract findings" },
} satisfies Record<string, Options>;

/** How a command reports requests: `--log text|json`, `--quiet`, `--verbose`. */
export type OutputArgs = ArgsOf<typeof outputOptions>;

/** A log line as written: its status painted when the terminal shows colours, else unchanged. */
function lineOf(entry: RequestLogEntry): string {
  if (!pc.isColorSupported) return formatLogLine(entry);
  const paint = entry.status === 0 || entry.status >= 500 ? pc.red : entry.status >= 400 ? pc.yellow : pc.green;
  return formatLogLine(entry).replace(/ (\d{3}|0) /, (_match, code: string) => ` ${paint(code)} `);
}

/**
 * A writer of one JSON object per line on stdout (pino): `{"level": "info", "time": ISO, ...fields,
 * "msg": message}`, for `--log json`.
 */
export function jsonLines(message: string): (fields: object) => void {
  // pino is loaded for `--log json` only.
  const { pino } = createRequire(import.meta.url)('pino') as typeof import('pino');
  const logger = pino(
    { base: null, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
    logStream(),
  );
  return (fields) => logger.info(fields, message);
}

let stream: SonicBoom | undefined;

/**
 * Standard output for the per-request log: a SonicBoom (pino's destination stream) that writes
 * asynchronously, gathering lines into writes of about 12 KB (sonic-boom wants less than its 16 KB
 * maxWrite) or every 50 ms, instead of one system call per line. Flushed when the process exits; a
 * closed stdout (`| head`) stops the log, not the server.
 */
function logStream(): SonicBoom {
  if (stream) return stream;
  const { SonicBoom: Boom } = createRequire(import.meta.url)('sonic-boom') as typeof import('sonic-boom');
  const boom = (stream = new Boom({ fd: 1, sync: false, minLength: 12_288, periodicFlush: 50 }));
  boom.on('error', () => undefined);
  process.on('exit', () => {
    try {
      boom.flushSync();
    } catch {
      // Nothing more can be written.
    }
  });
  return boom;
}

/**
 * The per-request log writer for the output flags. Text lines are coloured by status when the
 * terminal supports it (picocolors follows `NO_COLOR` and `FORCE_COLOR`); `--log json` writes one
 * JSON object per request through pino (`{"level", "time", "msg": "request", "method",
 * "operation", "scenario", "status", "durationMs", ...}`); with `--quiet` there is no writer
 * (`undefined`), so the server does not even gather the facts of a line.
 */
export function requestLogger(args: OutputArgs): ((entry: RequestLogEntry) => void) | undefined {
  if (args.quiet) return undefined;
  if (args.log === 'json') {
    const line = jsonLines('request');
    return (entry) => line({ ...entry, durationMs: Math.round(entry.durationMs * 100) / 100 });
  }
  const out = logStream();
  return (entry) => void out.write(`${lineOf(entry)}\n`);
}

/**
 * The writer of the lines the admin API says it changed (`ServerContext.onAdminChange`): `admin:
 * scenario "gallery" now answers …` on stdout, in order with the request log; one JSON object
 * (`"msg": "admin", "change"`) with `--log json`; none with `--quiet`.
 */
export function adminLogger(args: OutputArgs): ((line: string) => void) | undefined {
  if (args.quiet) return undefined;
  if (args.log === 'json') {
    const line = jsonLines('admin');
    return (change) => line({ change });
  }
  const out = logStream();
  return (change) => void out.write(`admin: ${change}\n`);
}

/** With `--verbose` (and a text log), prints the contract findings of every journaled request. */
export function logFindings(args: OutputArgs, journal: Journal): void {
  if (!args.verbose || args.quiet || args.log === 'json') return;
  journal.subscribe(({ entry }) => {
    for (const f of entry.findings)
      process.stdout.write(`    ${pc.yellow(`#${entry.id} ${entry.operation} ${f.rule}: ${f.message}`)}\n`);
  });
}

/** The start line that gives the QA dashboard's address: `  dashboard: http://127.0.0.1:8787/__mockvideo/`. */
export function dashboardLine(url: string): string {
  return `  dashboard: ${url}/__mockvideo/\n`;
}
