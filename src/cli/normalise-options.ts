import type { Options } from 'yargs';
import type { ArgsOf } from './options.js';
import { resolvePolicy, type NormalisationPolicy, type PolicyOverrides } from '../normalise/index.js';

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
 * The normalisation flags shared by record, replay, import, validate and drift, for
 * `yargs.options(...)`: `--volatile`, `--secret`, `--identity`, `--keep-identifiers`,
 * `--redact-header`, `--secret-cookie` and `--secret-value`. Like every flag, they can also come from
 * the config file (`{"volatile": ["_nonce", "_ts"], "keep-identifiers": true}`) or from
 * `MOCKVIDEO_VOLATILE=_nonce,_ts` and the like.
 */
export const normaliseFlags = {
  volatile: list('Parameters left out of the match key (replaces the default: _nonce,_ts)'),
  secret: list('Parameters stored as <SERVICE_TOKEN> and left out of the match key (replaces the default: _st)'),
  identity: list(
    'Device/user identifiers redacted and left out of the match key (replaces the default: _sdevid,_anoyid,_cam,_diordna,_app_coop_md5)',
  ),
  'keep-identifiers': {
    type: 'boolean',
    describe: 'Keep identifier values in stored files (still left out of the match key)',
  },
  'redact-header': list(
    'More headers to store as <REDACTED> (Authorization always is; in Cookie and Set-Cookie only the values of secret cookies)',
  ),
  'secret-cookie': list(
    'Cookies whose values are secret besides those named like a session, token or auth cookie (sid, *session*, *token*, *auth*, ...); "*" for every cookie',
  ),
  'secret-value': list(
    'Raw secret values to find and redact everywhere, e.g. the _st of a HAR that already says <SERVICE_TOKEN> (also MOCKVIDEO_SECRET_VALUE)',
  ),
} satisfies Record<string, Options>;

/** The parsed values of the normalisation flags. */
export type NormaliseArgs = Partial<ArgsOf<typeof normaliseFlags>>;

/**
 * The policy of the flags (which yargs has already merged with the config file and environment):
 * the defaults, each list replaced by the one given.
 * @throws MockvideoError (`MV_USAGE`) for a name in two lists.
 */
export function policyFromArgs(args: NormaliseArgs): NormalisationPolicy {
  const overrides: PolicyOverrides = {
    volatile: args.volatile,
    secret: args.secret,
    identity: args.identity,
    headers: args['redact-header'],
    keepIdentity: args['keep-identifiers'],
    secretCookies: args['secret-cookie'],
    secretValues: args['secret-value'],
  };
  return resolvePolicy(overrides, 'the normalisation flags');
}
