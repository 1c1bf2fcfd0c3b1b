/**
 * The query strings drift sends to the live service: a recorded request's query with fresh volatile
 * values and the real secret and identifiers put back, or the player client's realistic query for a
 * scenario's operation. The real values come from the user (a query file, environment variables),
 * never from a recording or scenario on disk. Pure, any runtime.
 * @module
 */
import { hex } from '@scure/base';
import {
  COMMON_PARAMETERS,
  IDENTITY_PARAMETERS,
  OPERATION_TABLE,
  SERVICE_TOKEN_PLACEHOLDER,
  type OperationName,
} from '../contract/core.js';
import { REDACTED, type NormalisationPolicy } from '../normalise/policy.js';
import { decodeComponent, splitQuery, type RawPair } from '../normalise/query.js';

/**
 * The real values for live requests, by decoded parameter name (raw, percent-encoded values): the
 * pairs of each `queryTexts` (a `--query-file` or `MOCKVIDEO_QUERY`: a query string
 * `_st=…&_sdevid=…`, a whole request line or URL whose part after `?` is taken, or one `name=value`
 * per line; `#` starts a comment line), then `token` (`MOCKVIDEO_ST`, the plain `_st`) over them.
 *
 * @example liveValues(['GET /api/g1/meta/cp?_st=abc&_sdevid=0f…']) // Map { '_st' → 'abc', '_sdevid' → '0f…' }
 */
export function liveValues(queryTexts: ReadonlyArray<string | undefined>, token?: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of queryTexts.flatMap((text) => text?.split(/\r?\n/) ?? [])) {
    const trimmed = line.trim();
    if (trimmed && !trimmed.startsWith('#'))
      for (const [name, value] of splitQuery(trimmed.slice(trimmed.indexOf('?') + 1)))
        values.set(decodeComponent(name), value);
  }
  if (token) values.set('_st', encodeURIComponent(token));
  return values;
}

/** Fresh values of the volatile parameters the seed names: `_nonce` (a signed 32-bit integer) and `_ts` (Unix time in **seconds**). */
function freshValue(name: string, nowMs: number): string | undefined {
  if (name === '_nonce') return String((Math.random() * 2 ** 32 - 2 ** 31) | 0);
  if (name === '_ts') return String(Math.floor(nowMs / 1000));
  return undefined;
}

/** A query ready to send, or the names of the real values it still lacks. */
export interface LiveQuery {
  pairs: RawPair[];
  /** Parameter names whose stored placeholder has no real value (give them with --query-file or the environment). */
  missing: string[];
}

/**
 * A recorded request's query made live: `_nonce` and `_ts` fresh, every secret and identity
 * parameter given in `values` set to it (a `<SERVICE_TOKEN>` or `<REDACTED>` placeholder without one
 * is `missing`), other pairs as recorded (order and repeats kept).
 *
 * @example liveQueryOf([['_st', '<SERVICE_TOKEN>'], ['_ts', '1']], new Map([['_st', 'tok']]), policy) // pairs [['_st','tok'], ['_ts','17…']]
 */
export function liveQueryOf(
  recorded: readonly RawPair[],
  values: ReadonlyMap<string, string>,
  policy: NormalisationPolicy,
  nowMs = Date.now(),
): LiveQuery {
  const missing = new Set<string>();
  const pairs = recorded.map(([rawName, rawValue]): RawPair => {
    const name = decodeComponent(rawName);
    const fresh = policy.volatile.includes(name) ? freshValue(name, nowMs) : undefined;
    if (fresh !== undefined) return [rawName, fresh];
    const real = values.get(name);
    // A value given for a secret or identifier wins over one the recording kept (`--keep-identifiers`).
    if (real !== undefined && (policy.secret.includes(name) || policy.identity.includes(name))) return [rawName, real];
    if (rawValue !== SERVICE_TOKEN_PLACEHOLDER && rawValue !== REDACTED) return [rawName, rawValue];
    if (real === undefined) missing.add(name);
    return [rawName, real ?? rawValue];
  });
  return { pairs, missing: [...missing] };
}

/**
 * Values of the player client's common parameters that identify nothing (made up, as in the seed's
 * example requests), used where the user gives none. Secret and identity parameters have none here:
 * they must come from the user.
 */
const CLIENT_DEFAULTS: Readonly<Record<string, string>> = {
  _oemui: 'V140',
  _oemuiver: 'V14.0.3.0.TMPINXM',
  _andver: '33',
  _model: 'Redmi%20Note%2012%20Pro%2B',
  _device: 'ruby',
  _locale: 'en_IN',
  _region: 'IN',
  _appver: '2024062790',
  _isoemui: '1',
  _language: 'English',
  ref: 'com.example.videoplayer',
  _res: 'hd1080',
  _ver: '2024062790(stable)',
  _devtype: '1',
  _version: 'stable',
  _plyver: '20240611',
  _nettype: '4',
  _uspace: '0',
  _eset: '',
};

/**
 * The query the player client sends for `operation`: its extra parameters first (`ref` empty, then
 * `is_from_gallery`), then the common parameters in the seed's table order, `_nonce` and `_ts`
 * fresh, other values from `values`, else made-up client values; `conditions` (a stub's `when.query`)
 * set their parameters. Secret and identity parameters without a value in `values` are `missing`.
 *
 * @see docs/contract.md#common-query-parameters and docs/contract.md#operations.
 */
export function clientQuery(
  operation: OperationName,
  values: ReadonlyMap<string, string>,
  policy: NormalisationPolicy,
  conditions: Readonly<Record<string, string>> = {},
  nowMs = Date.now(),
): LiveQuery {
  const missing: string[] = [];
  const pairs: RawPair[] = [];
  const given = (name: string) => (name in conditions ? encodeURIComponent(conditions[name]!) : undefined);
  for (const extra of OPERATION_TABLE[operation].extraParameters) {
    if (extra.name === 'ref') pairs.push(['ref', '']);
    else
      pairs.push([
        extra.name,
        given(extra.name) ?? values.get(extra.name) ?? (extra.name === 'is_from_gallery' ? 'true' : ''),
      ]);
  }
  for (const { name } of COMMON_PARAMETERS) {
    const value = freshValue(name, nowMs) ?? given(name) ?? values.get(name) ?? CLIENT_DEFAULTS[name];
    if (value === undefined) missing.push(name);
    pairs.push([name, value ?? (policy.secret.includes(name) ? SERVICE_TOKEN_PLACEHOLDER : REDACTED)]);
  }
  for (const [name, value] of Object.entries(conditions))
    if (!pairs.some(([n]) => n === name)) pairs.push([name, encodeURIComponent(value)]);
  return { pairs, missing };
}

/** The query string of raw pairs, as sent: `a=1&b=2`. */
export function queryString(pairs: readonly RawPair[]): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/**
 * A made-up value of an identity parameter in the seed's format (`_sdevid`: 64 lowercase hex;
 * `_anoyid`: a UUID; `_cam`, `_diordna`, `_app_coop_md5`: 32 hex), for a drift run given only the
 * token: a generated device, which the report says. `undefined` for a name the seed gives no format.
 *
 * @see docs/contract.md#common-query-parameters.
 * @example generatedIdentifier('_sdevid') // '3f9c…' (64 hex)
 */
export function generatedIdentifier(name: string): { value: string; format: string } | undefined {
  if (!(IDENTITY_PARAMETERS as readonly string[]).includes(name)) return undefined;
  const format = COMMON_PARAMETERS.find((p) => p.name === name)?.format ?? '';
  if (format === 'UUID') return { value: crypto.randomUUID(), format };
  const digits = /^(\d+) (?:lowercase )?hex characters$/.exec(format);
  return digits
    ? { value: hex.encode(crypto.getRandomValues(new Uint8Array(Number(digits[1]) / 2))), format }
    : undefined;
}
