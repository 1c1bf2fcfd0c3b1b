import type { Options } from 'yargs';
import { MockvideoError } from '../errors.js';

/** `--port`: an integer from 0 to 65535; 0 picks a free port. */
export const portOption = {
  // No `type: 'number'`: yargs would turn "eighty" into NaN before the check could quote it.
  requiresArg: true,
  default: 8787,
  describe: 'Port to listen on, 0 to 65535 (0 picks a free port)',
  coerce: (value: unknown) => {
    if (value === undefined) return undefined;
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`--port must be an integer from 0 to 65535, got "${String(value)}"`);
    }
    return port;
  },
} satisfies Options;

/** `--host`: the address to bind; `0.0.0.0` serves devices on the network. */
export const hostOption = {
  type: 'string',
  default: '127.0.0.1',
  describe: 'Address to bind (0.0.0.0 to reach it from devices and emulators on the network)',
} satisfies Options;

/** `--scenarios-dir`: a folder of scenario files added to (and overriding) the shipped ones. */
export const scenariosDirOption = {
  type: 'string',
  describe: "Folder of scenario files, added to the shipped ones (default: the package's scenarios/ folder)",
  normalize: true,
} satisfies Options;

/** `--journal-size`: how many requests the journal keeps (1 to 100,000). */
export const journalSizeOption = {
  requiresArg: true,
  default: 1000,
  describe: 'Requests the journal keeps (1 to 100000)',
  coerce: (value: unknown) => {
    const size = Number(value);
    if (!Number.isInteger(size) || size < 1 || size > 100_000)
      throw new Error(`--journal-size must be an integer from 1 to 100000, got "${String(value)}"`);
    return size;
  },
} satisfies Options;

/** `--fault`: a server-wide fault, `[OPERATION=]KIND[:ARG]`, repeatable. */
export const faultOption = {
  type: 'string',
  array: true,
  describe:
    'Inject a fault, [OPERATION=]KIND[:ARG]: delay[:MS|MIN-MAX], status[:CODE], envelope[:RESULT], malformed-json, empty, reset, hang (repeatable)',
} satisfies Options;

/** `--admin-token`: lets other hosts call mutating admin endpoints with `Authorization: Bearer TOKEN`. */
export const adminTokenOption = {
  type: 'string',
  describe: 'Allow admin changes from other hosts that send "Authorization: Bearer TOKEN" (loopback is always allowed)',
} satisfies Options;

/** `--engine` of `serve` and `replay`: the routes through the Node host, or the generated MSW handlers in Express. */
export const engineOption = {
  choices: ['routes', 'msw'] as const,
  default: 'routes',
  describe:
    'routes: the fast Node host; msw: the same answers from the MSW handlers that createHandlers() gives, through the getResponse of msw in Express (slower)',
} as const;

/** `--allow-host` of `record` and `replay --record-missing`: more names devices reach the recorder by. */
export const allowHostOption = {
  type: 'string',
  array: true,
  describe:
    "Also forward requests whose Host is this name (e.g. a DNS name of this machine); the machine's own names and addresses and 10.0.2.2 always work",
} as const;

/** Checks `--upstream`: an http(s) URL. @throws MockvideoError (`MV_USAGE`). */
export function upstreamUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MockvideoError('MV_USAGE', `--upstream must be a URL like https://api.example.com, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new MockvideoError('MV_USAGE', `--upstream must be http:// or https://, got "${value}".`);
  return url.toString().replace(/\/$/, '');
}

/** `--upstream-timeout`: seconds, a positive number; a total deadline for headers and body. */
export const upstreamTimeoutOption = {
  type: 'number',
  default: 10,
  describe: 'Seconds the upstream has to answer completely, headers and body, before the client gets a 504',
  coerce: (value: unknown) => {
    const seconds = Number(value);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new Error(`--upstream-timeout must be a positive number of seconds, got "${String(value)}"`);
    return seconds;
  },
} as const;

/** `--insecure-upstream`: accept an https upstream whose certificate does not verify. */
export const insecureUpstreamOption = {
  type: 'boolean',
  default: false,
  describe:
    'Accept an https upstream whose certificate does not verify (self-signed, unknown CA, wrong host name); by default it is refused with a 502',
} as const;

/**
 * The warning printed at start with `--insecure-upstream`, on stderr.
 * @example insecureUpstreamWarning('https://staging.example.com') // '[mockvideo] Warning: --insecure-upstream: ...'
 */
export function insecureUpstreamWarning(upstream: string): string {
  if (!upstream.startsWith('https:'))
    return `[mockvideo] Warning: --insecure-upstream has no effect: ${upstream} is not https.\n`;
  return `[mockvideo] Warning: --insecure-upstream: the TLS certificate of ${upstream} is not checked, so anyone on the network path can read and change what is recorded. Use it only for a test server you trust.\n`;
}
