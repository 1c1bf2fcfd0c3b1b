import { IDENTITY_PARAMETERS, SECRET_PARAMETERS, VOLATILE_PARAMETERS } from '../contract/core.js';
import { MockvideoError } from '../errors.js';

/**
 * How requests are normalised, declaratively, one list per treatment. Used by record, replay,
 * import, near-miss reports and validate alike.
 *
 * - `volatile`: fresh on every request; left out of the match key, stored as sent.
 * - `secret`: left out of the match key; stored as `<SERVICE_TOKEN>`.
 * - `identity`: left out of the match key; stored as `<REDACTED>` unless `keepIdentity`.
 * - `headers`: request and response headers whose values are stored as `<REDACTED>` (for `cookie`
 *   and `set-cookie`: only the values of secret cookies, see `isSecretCookie`).
 * - `secretCookies`: cookie names whose values are secret besides those that look like a
 *   session/token/auth cookie (`*`: every cookie).
 * - `secretValues`: raw secret values searched for everywhere even when no request names them (the
 *   `_st` of a HAR that already says `<SERVICE_TOKEN>`).
 */
export interface NormalisationPolicy {
  readonly volatile: readonly string[];
  readonly secret: readonly string[];
  readonly identity: readonly string[];
  /** Keep identity values in stored files (they still stay out of the match key). */
  readonly keepIdentity: boolean;
  /** Lower-case header names. */
  readonly headers: readonly string[];
  readonly secretCookies: readonly string[];
  readonly secretValues: readonly string[];
}

/** The placeholder stored for a redacted identity value or credential header. */
export const REDACTED = '<REDACTED>';

/** Headers that carry credentials: always redacted in stored files. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'] as const;

/**
 * The defaults: `_nonce`, `_ts` volatile; `_st` secret; `_sdevid`, `_anoyid`, `_cam`, `_diordna`,
 * `_app_coop_md5` identity (redacted); credential headers redacted.
 * @see docs/contract.md#authentication; docs/contract.md#common-query-parameters.
 */
export const DEFAULT_POLICY: NormalisationPolicy = Object.freeze({
  volatile: Object.freeze([...VOLATILE_PARAMETERS]),
  secret: Object.freeze([...SECRET_PARAMETERS]),
  identity: Object.freeze([...IDENTITY_PARAMETERS]),
  keepIdentity: false,
  headers: Object.freeze([...CREDENTIAL_HEADERS]),
  secretCookies: Object.freeze([]),
  secretValues: Object.freeze([]),
});

/** The lists of a policy, each of names. */
const LISTS = ['volatile', 'secret', 'identity', 'headers', 'secretCookies', 'secretValues'] as const;

/** A partial policy, as read from flags or a config file. */
export type PolicyOverrides = Partial<Record<(typeof LISTS)[number], readonly string[]>> & { keepIdentity?: boolean };

function nameList(value: unknown, field: string, source: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw new MockvideoError(
      'MV_USAGE',
      `${source}: "${field}" must be a list of parameter names, e.g. ["_nonce", "_ts"]. Fix it and run again.`,
    );
  }
  return value as string[];
}

/**
 * Builds a policy: the defaults, replaced list by list by `overrides` (a list given replaces the
 * default one; credential headers are always added to `headers`). Validated once, then frozen.
 *
 * @throws MockvideoError (`MV_USAGE`) when a list is not a list of non-empty names, or a name is in two lists.
 * @example resolvePolicy({ volatile: ['_nonce', '_ts', '_rnd'] })
 */
export function resolvePolicy(overrides: PolicyOverrides = {}, source = 'normalisation policy'): NormalisationPolicy {
  const lists = Object.fromEntries(
    LISTS.map((list) => [list, overrides[list] ? nameList(overrides[list], list, source) : DEFAULT_POLICY[list]]),
  ) as Record<(typeof LISTS)[number], readonly string[]>;
  const seen = new Map<string, string>();
  for (const list of ['volatile', 'secret', 'identity'] as const) {
    for (const name of lists[list]) {
      const other = seen.get(name);
      if (other && other !== list)
        throw new MockvideoError(
          'MV_USAGE',
          `${source}: "${name}" is both ${other} and ${list}. Put it in one list only.`,
        );
      seen.set(name, list);
    }
  }
  if (overrides.keepIdentity !== undefined && typeof overrides.keepIdentity !== 'boolean') {
    throw new MockvideoError('MV_USAGE', `${source}: "keepIdentity" must be true or false.`);
  }
  return Object.freeze({
    ...(Object.fromEntries(LISTS.map((list) => [list, Object.freeze([...lists[list]])])) as typeof lists),
    headers: Object.freeze([...new Set([...CREDENTIAL_HEADERS, ...lists.headers.map((h) => h.toLowerCase())])]),
    keepIdentity: overrides.keepIdentity ?? false,
  });
}

/** Why a parameter is left out of the match key, or `undefined` when it is part of it. */
export function ignoredBecause(
  policy: NormalisationPolicy,
  name: string,
): 'volatile' | 'secret' | 'identity' | undefined {
  if (policy.volatile.includes(name)) return 'volatile';
  if (policy.secret.includes(name)) return 'secret';
  if (policy.identity.includes(name)) return 'identity';
  return undefined;
}
