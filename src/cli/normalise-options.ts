import type { Argv } from 'yargs';
import { resolvePolicy, type NormalisationPolicy, type PolicyOverrides } from '../normalise/index.js';

/** The normalisation flags shared by record, replay, import and validate. */
export interface NormaliseArgs {
  volatile?: string[];
  secret?: string[];
  identity?: string[];
  'keep-identifiers'?: boolean;
  'redact-header'?: string[];
  'secret-cookie'?: string[];
  'secret-value'?: string[];
}

const list = (describe: string) =>
  ({
    type: 'string',
    array: true,
    describe,
    coerce: (values: string[]) =>
      values
        .flatMap((v) => String(v).split(','))
        .map((v) => v.trim())
        .filter(Boolean),
  }) as const;

/**
 * Adds `--volatile`, `--secret`, `--identity`, `--keep-identifiers` and `--redact-header` to a
 * command. Like every flag, they can also come from the config file (`mockvideo.config.json` or
 * `--config FILE`: `{"volatile": ["_nonce", "_ts"], "keep-identifiers": true}`) or from
 * `MOCKVIDEO_VOLATILE=_nonce,_ts` and the like.
 */
export function normaliseOptions<T>(yargs: Argv<T>): Argv<T & NormaliseArgs> {
  return yargs
    .option('volatile', list('Parameters left out of the match key (replaces the default: _nonce,_ts)'))
    .option(
      'secret',
      list('Parameters stored as <SERVICE_TOKEN> and left out of the match key (replaces the default: _st)'),
    )
    .option(
      'identity',
      list(
        'Device/user identifiers redacted and left out of the match key (replaces the default: _sdevid,_anoyid,_cam,_diordna,_app_coop_md5)',
      ),
    )
    .option('keep-identifiers', {
      type: 'boolean',
      describe: 'Keep identifier values in stored files (still left out of the match key)',
    })
    .option(
      'redact-header',
      list(
        'More headers to store as <REDACTED> (Authorization always is; in Cookie and Set-Cookie only the values of secret cookies)',
      ),
    )
    .option(
      'secret-cookie',
      list(
        'Cookies whose values are secret besides those named like a session, token or auth cookie (sid, *session*, *token*, *auth*, ...); "*" for every cookie',
      ),
    )
    .option(
      'secret-value',
      list(
        'Raw secret values to find and redact everywhere, e.g. the _st of a HAR that already says <SERVICE_TOKEN> (also MOCKVIDEO_SECRET_VALUE)',
      ),
    ) as unknown as Argv<T & NormaliseArgs>;
}

/**
 * The policy of the flags (which yargs has already merged with the config file and environment):
 * the defaults, each list replaced by the one given.
 * @throws MockvideoError (`MV_USAGE`) for a name in two lists.
 */
export function policyFromArgs(args: NormaliseArgs): NormalisationPolicy {
  const overrides: PolicyOverrides = {};
  if (args.volatile) overrides.volatile = args.volatile;
  if (args.secret) overrides.secret = args.secret;
  if (args.identity) overrides.identity = args.identity;
  if (args['redact-header']) overrides.headers = args['redact-header'];
  if (args['keep-identifiers'] !== undefined) overrides.keepIdentity = args['keep-identifiers'];
  if (args['secret-cookie']) overrides.secretCookies = args['secret-cookie'];
  if (args['secret-value']) overrides.secretValues = args['secret-value'];
  return resolvePolicy(overrides, 'the normalisation flags');
}
