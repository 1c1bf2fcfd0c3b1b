/**
 * One query parameter of the seed's tables: its name, the format its value must have (as a regular
 * expression over the decoded value) and the rule in words, for findings and documentation.
 */
export interface QueryParameterSpec {
  name: string;
  /** The decoded value must match this. */
  pattern: RegExp;
  /** The format in the seed's words, e.g. "64 lowercase hex characters". */
  format: string;
  /** The meaning, from the seed's table. */
  meaning: string;
}

import { INTEGER_TEXT as INTEGER } from './number-text.js';

const HEX32 = /^[0-9a-fA-F]{32}$/;
const ANY = /^[\s\S]*$/;
/**
 * `<language>_<COUNTRY>`: a language code of letters (`en`, `fil`, old Java codes such as `in`), then
 * a country of two upper-case letters or a three-digit area (`es_419`); what follows on Android
 * (`zh_CN_#Hans`) is allowed.
 */
const LOCALE = /^[A-Za-z]{2,8}_(?:[A-Z]{2}|\d{3})(?:_.*)?$/;

/**
 * The common query parameters sent on every request, in the seed's table order. `_ts` is Unix time
 * in **seconds**. `_st` is the service token (a secret: write it as `<SERVICE_TOKEN>`).
 *
 * @see docs/contract.md#common-query-parameters.
 */
export const COMMON_PARAMETERS: readonly QueryParameterSpec[] = [
  {
    name: '_sdevid',
    pattern: /^[0-9a-f]{64}$/,
    format: '64 lowercase hex characters',
    meaning: 'Hashed device identifier.',
  },
  { name: '_oemui', pattern: ANY, format: 'string', meaning: 'Device-vendor interface version label.' },
  { name: '_oemuiver', pattern: ANY, format: 'string', meaning: 'Full build version of the device-vendor interface.' },
  { name: '_andver', pattern: INTEGER, format: 'integer as text', meaning: 'Operating-system API level.' },
  { name: '_model', pattern: ANY, format: 'string, percent-encoded', meaning: 'Device model name.' },
  { name: '_device', pattern: ANY, format: 'string', meaning: 'Device code name.' },
  { name: '_locale', pattern: LOCALE, format: '<language>_<COUNTRY>', meaning: 'Device locale.' },
  { name: '_region', pattern: /^[A-Z]{2}$/, format: 'two upper-case letters', meaning: 'Country code.' },
  { name: '_appver', pattern: INTEGER, format: 'integer as text', meaning: 'Application build number.' },
  {
    name: '_isoemui',
    pattern: /^[01]$/,
    format: '1 or 0 as text',
    meaning: 'Whether the device runs the vendor interface.',
  },
  {
    name: '_anoyid',
    pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    format: 'UUID',
    meaning: 'Anonymous user identifier.',
  },
  { name: '_st', pattern: /^.+$/s, format: 'non-empty opaque string', meaning: 'Service token; see Authentication.' },
  { name: '_language', pattern: ANY, format: 'string', meaning: 'Language name.' },
  { name: 'ref', pattern: ANY, format: 'string', meaning: 'Identifier of the calling application.' },
  { name: '_res', pattern: ANY, format: 'string', meaning: 'Screen-resolution label.' },
  { name: '_nonce', pattern: INTEGER, format: 'integer, may be negative', meaning: 'Per-request number.' },
  {
    name: '_ts',
    pattern: INTEGER,
    format: 'integer (Unix time in seconds)',
    meaning: 'Unix time in seconds at the request.',
  },
  { name: '_ver', pattern: /^[^()]+\([^()]+\)$/, format: '<build>(<channel>)', meaning: 'Application version label.' },
  { name: '_devtype', pattern: INTEGER, format: 'integer', meaning: 'Device type code.' },
  { name: '_cam', pattern: HEX32, format: '32 hex characters', meaning: 'Opaque client value.' },
  { name: '_diordna', pattern: HEX32, format: '32 hex characters', meaning: 'Opaque client value.' },
  { name: '_version', pattern: ANY, format: 'string (release channel)', meaning: 'Release channel; observed stable.' },
  { name: '_plyver', pattern: /^\d{8}$/, format: '8 digits', meaning: 'Player version.' },
  { name: '_nettype', pattern: INTEGER, format: 'integer', meaning: 'Network type code; observed 0 and 4.' },
  { name: '_uspace', pattern: INTEGER, format: 'integer', meaning: 'Observed 0.' },
  { name: '_eset', pattern: ANY, format: 'string, may be empty', meaning: 'May be empty.' },
  { name: '_app_coop_md5', pattern: HEX32, format: '32 hex characters', meaning: 'Opaque client value.' },
];

/**
 * The volatile parameters: fresh on every request (`_nonce`, `_ts`).
 * @see docs/contract.md#authentication and docs/contract.md#common-query-parameters.
 */
export const VOLATILE_PARAMETERS = ['_nonce', '_ts'] as const;

/**
 * The secret parameters: the service token `_st`, written as this placeholder wherever it is stored.
 * @see docs/contract.md#authentication.
 */
export const SECRET_PARAMETERS = ['_st'] as const;

/** The placeholder the seed uses for the service token. @see docs/contract.md#authentication. */
export const SERVICE_TOKEN_PLACEHOLDER = '<SERVICE_TOKEN>';

/**
 * The parameters that identify the device or user, or are opaque per-client values.
 * @see docs/contract.md#authentication (`_anoyid`, `_sdevid`) and docs/contract.md#common-query-parameters (opaque values).
 */
export const IDENTITY_PARAMETERS = ['_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5'] as const;
