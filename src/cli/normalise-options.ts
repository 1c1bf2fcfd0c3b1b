import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { MockvideoError } from '../errors.js';
import { resolvePolicy, type NormalisationPolicy, type PolicyOverrides } from '../normalise/index.js';

/** The normalisation flags shared by record, replay, import and validate. */
export interface NormaliseArgs {
  volatile?: string[];
  secret?: string[];
  identity?: string[];
  'keep-identifiers'?: boolean;
  config?: string;
}

const list = (describe: string) => ({ type: 'string', array: true, describe, coerce: (values: string[]) => values.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean) }) as const;

/** Adds `--volatile`, `--secret`, `--identity`, `--keep-identifiers` and `--config` to a command. */
export function normaliseOptions<T>(yargs: Argv<T>): Argv<T & NormaliseArgs> {
  return yargs
    .option('volatile', list('Parameters left out of the match key (replaces the default: _nonce,_ts)'))
    .option('secret', list('Parameters stored as <SERVICE_TOKEN> and left out of the match key (replaces the default: _st)'))
    .option('identity', list('Device/user identifiers redacted and left out of the match key (replaces the default: _sdevid,_anoyid,_cam,_diordna,_app_coop_md5)'))
    .option('keep-identifiers', { type: 'boolean', describe: 'Keep identifier values in stored files (still left out of the match key)' })
    .option('config', { type: 'string', normalize: true, describe: 'JSON file: {"volatile": [...], "secret": [...], "identity": [...], "keepIdentifiers": false, "headers": [...]}' }) as unknown as Argv<T & NormaliseArgs>;
}

/**
 * The policy of the flags: the defaults, then the `--config` file's lists, then the flags' lists.
 * @throws MockvideoError (`MV_USAGE`) for an unreadable or invalid config file or a bad list.
 */
export function policyFromArgs(args: NormaliseArgs): NormalisationPolicy {
  let overrides: PolicyOverrides = {};
  if (args.config) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(args.config, 'utf8'));
    } catch (error) {
      throw new MockvideoError('MV_USAGE', `Cannot read the config file ${args.config}: ${(error as Error).message}. Give a JSON file like {"volatile": ["_nonce", "_ts"]}.`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MockvideoError('MV_USAGE', `${args.config}: expected a JSON object like {"volatile": ["_nonce", "_ts"]}.`);
    const { volatile, secret, identity, headers, keepIdentifiers, ...rest } = value as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new MockvideoError('MV_USAGE', `${args.config}: unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; the fields are volatile, secret, identity, headers and keepIdentifiers.`);
    overrides = { ...(volatile !== undefined ? { volatile: volatile as string[] } : {}), ...(secret !== undefined ? { secret: secret as string[] } : {}), ...(identity !== undefined ? { identity: identity as string[] } : {}), ...(headers !== undefined ? { headers: headers as string[] } : {}), ...(keepIdentifiers !== undefined ? { keepIdentity: keepIdentifiers as boolean } : {}) };
    resolvePolicy(overrides, args.config);
  }
  if (args.volatile) overrides.volatile = args.volatile;
  if (args.secret) overrides.secret = args.secret;
  if (args.identity) overrides.identity = args.identity;
  if (args['keep-identifiers'] !== undefined) overrides.keepIdentity = args['keep-identifiers'];
  return resolvePolicy(overrides, args.config ?? 'flags');
}
