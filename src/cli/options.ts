import type { Argv, InferredOptionTypes, Options } from 'yargs';
import { normalize } from 'node:path';
import { MockvideoError } from '../errors.js';

/** The parsed values of a group of yargs options, by flag name and by its camelCase alias (as a handler gets them). */
export type ArgsOf<O extends Record<string, Options>> = {
  [K in keyof InferredOptionTypes<O> & string as K | Camel<K>]: InferredOptionTypes<O>[K];
};
/** The arguments a command's handler gets: what its `builder` declares. */
export type BuiltArgs<B extends (yargs: Argv) => Argv<unknown>> = ReturnType<B> extends Argv<infer T> ? T : never;

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Camel<Capitalize<Tail>>}` : S;

/**
 * A coerce step for a number flag that `ok` accepts, else `--FLAG must be EXPECTED, got "VALUE"`
 * (yargs prints it as a usage error). No `type: 'number'` on such a flag: yargs would turn "eighty"
 * into NaN before the check could quote it.
 */
export function numberFrom(flag: string, expected: string, ok: (n: number) => boolean) {
  return (value: unknown): number => {
    const n = Number(value);
    if (!ok(n)) throw new Error(`--${flag} must be ${expected}, got "${String(value)}"`);
    return n;
  };
}

/** A coerce step for an integer flag from `min` to `max`: `--port must be an integer from 0 to 65535, got "eighty"`. */
export const integerFrom = (flag: string, min: number, max: number) =>
  numberFrom(flag, `an integer from ${min} to ${max}`, (n) => Number.isInteger(n) && n >= min && n <= max);

/** `--port`: an integer from 0 to 65535; 0 picks a free port. */
export const portOption = {
  requiresArg: true,
  default: 8787,
  describe: 'Port to listen on, 0 to 65535 (0 picks a free port)',
  coerce: integerFrom('port', 0, 65535),
} satisfies Options;

/** `--host`: the address to bind; `0.0.0.0` serves devices on the network. */
export const hostOption = {
  type: 'string',
  default: '127.0.0.1',
  describe: 'Address to bind (0.0.0.0 to reach it from devices and emulators on the network)',
} satisfies Options;

/**
 * The coerce step of a path flag or positional (`type: 'string'`): normalised as yargs' `normalize`
 * would (which crashes on a flag given twice: "Cannot redefine property"); given twice, the last wins.
 */
export const pathValue = {
  coerce: (value: unknown) => normalize(String(Array.isArray(value) ? value.at(-1) : value)),
} as const;

/** The coerce step of a path list (`type: 'string', array: true`): each path normalised, as {@link pathValue}. */
export const pathList = {
  coerce: (values: unknown[]) => values.map((value) => normalize(String(value))),
} as const;

/** `--url` of `verify` and `bundle`: the running mockvideo server they read. */
export const runningServerOption = {
  type: 'string',
  demandOption: true,
  describe: 'The running mockvideo, e.g. http://127.0.0.1:8787',
} as const satisfies Options;

/** `--scenarios-dir`: a folder of scenario files added to (and overriding) the shipped ones. */
export const scenariosDirOption = {
  type: 'string',
  describe: "Folder of scenario files, added to the shipped ones (default: the package's scenarios/ folder)",
  ...pathValue,
} satisfies Options;

/** Checks `--upstream`: an http(s) URL. @throws MockvideoError (`MV_USAGE`). */
export function upstreamUrl(value: string): string {
  if (!URL.canParse(value))
    throw new MockvideoError('MV_USAGE', `--upstream must be a URL like https://api.example.com, got "${value}".`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new MockvideoError('MV_USAGE', `--upstream must be http:// or https://, got "${value}".`);
  return url.toString().replace(/\/$/, '');
}

/** `--upstream-timeout`: seconds, a positive number; a total deadline for headers and body. */
export const upstreamTimeoutOption = {
  type: 'number',
  default: 10,
  describe: 'Seconds the upstream has to answer completely, headers and body, before the client gets a 504',
  coerce: numberFrom('upstream-timeout', 'a positive number of seconds', (n) => Number.isFinite(n) && n > 0),
} satisfies Options;

/** `--insecure-upstream`: accept an https upstream whose certificate does not verify. */
export const insecureUpstreamOption = {
  type: 'boolean',
  default: false,
  describe:
    'Accept an https upstream whose certificate does not verify (self-signed, unknown CA, wrong host name); by default it is refused with a 502',
} satisfies Options;

/** The flags of recording that `record` and `replay --record-missing` share (besides `--upstream`), declared once. */
export const recordingOptions = {
  'upstream-timeout': upstreamTimeoutOption,
  'insecure-upstream': insecureUpstreamOption,
  'record-failures': {
    type: 'boolean',
    default: false,
    describe: 'Also record 5xx answers of the upstream (always passed to the client)',
  },
  'allow-host': {
    type: 'string',
    array: true,
    describe:
      "Also forward requests whose Host is this name (e.g. a DNS name of this machine); the machine's own names and addresses and 10.0.2.2 always work",
  },
} satisfies Record<string, Options>;

/**
 * What the flags of {@link recordingOptions} and `--upstream` set (see `RecordingOptions`).
 * @throws MockvideoError (`MV_USAGE`) for an `--upstream` that is no http(s) URL.
 */
export function recordingSettings(args: ArgsOf<typeof recordingOptions> & { upstream: string }) {
  return {
    upstream: upstreamUrl(args.upstream),
    timeoutMs: args.upstreamTimeout * 1000,
    recordFailures: args.recordFailures,
    insecureUpstream: args.insecureUpstream,
    allowHosts: args.allowHost,
  };
}

/**
 * The warning printed at start with `--insecure-upstream`, on stderr.
 * @example say(insecureUpstreamWarning('https://staging.example.com')) // Warning: --insecure-upstream: ...
 */
export function insecureUpstreamWarning(upstream: string): string {
  if (!upstream.startsWith('https:')) return `Warning: --insecure-upstream has no effect: ${upstream} is not https.`;
  return `Warning: --insecure-upstream: the TLS certificate of ${upstream} is not checked, so anyone on the network path can read and change what is recorded. Use it only for a test server you trust.`;
}
