/**
 * The flags of the live state that `serve`, `replay` and `serve --replay DIR` share, declared once:
 * `--fault`, `--strict-requests`, `--admin-token`, `--journal-size`, and what they become
 * (`liveStateSettings`, the `ServerContextOptions` they set).
 * @module
 */
import type { Options } from 'yargs';
import type { ServerContextOptions } from '../server/context.js';
import { adminTokenOption, faultOption, journalSizeOption } from './options.js';

/** `--strict-requests`: answer requests to operations with contract findings with 400. */
const strictRequestsOption = {
  type: 'boolean',
  default: false,
  describe: 'Answer requests that break the contract with 400 (default: serve them, report the findings)',
} satisfies Options;

/** The live state's flags, for `yargs.options(...)`. */
export const liveStateOptions = {
  'journal-size': journalSizeOption,
  'strict-requests': strictRequestsOption,
  fault: faultOption,
  'admin-token': adminTokenOption,
} satisfies Record<string, Options>;

/** The parsed flags of {@link liveStateOptions}. */
export interface LiveStateArgs {
  'journal-size': number;
  'strict-requests': boolean;
  fault?: string[];
  'admin-token'?: string;
}

/** What the live state's flags set. */
export type LiveStateSettings = Pick<ServerContextOptions, 'faults' | 'strictRequests' | 'adminToken' | 'journalSize'>;

/**
 * The settings of the live state's flags; the fault grammar loads only when `--fault` is given.
 * @throws FaultError (a usage error) naming a `--fault` that does not parse.
 */
export async function liveStateSettings(args: LiveStateArgs): Promise<LiveStateSettings> {
  const faults = args.fault?.length ? args.fault.map((await import('../faults/plan.js')).parseFaultFlag) : [];
  return {
    faults,
    journalSize: args['journal-size'],
    strictRequests: args['strict-requests'],
    ...(args['admin-token'] ? { adminToken: args['admin-token'] } : {}),
  };
}
