import { OPERATIONS, type OperationName } from '../../src/contract/index.js';

/**
 * The common query parameters as the player client sends them, in the seed's table order, with the
 * made-up values of shared/fixtures/client-requests.txt (`_st` is a placeholder, never a real token).
 * Values are as they appear in the URL (already percent-encoded).
 */
export const CLIENT_COMMON_QUERY: ReadonlyArray<readonly [string, string]> = [
  ['_sdevid', 'abf1bbe2790152de93df075ce357a7f93bdc91ea49ca73715589e2c09e9bc923'],
  ['_oemui', 'V140'],
  ['_oemuiver', 'V14.0.3.0.TMPINXM'],
  ['_andver', '33'],
  ['_model', 'Redmi%20Note%2012%20Pro%2B'],
  ['_device', 'ruby'],
  ['_locale', 'en_IN'],
  ['_region', 'IN'],
  ['_appver', '2024062790'],
  ['_isoemui', '1'],
  ['_anoyid', '629938e3-cb8c-4288-91f5-7599a61977fe'],
  ['_st', 'PLACEHOLDER-SERVICE-TOKEN'],
  ['_language', 'English'],
  ['ref', 'com.example.videoplayer'],
  ['_res', 'hd1080'],
  ['_nonce', '1210681715'],
  ['_ts', '1795322072'],
  ['_ver', '2024062790(stable)'],
  ['_devtype', '1'],
  ['_cam', '568d4db3db166c8b0fce12c0a464a925'],
  ['_diordna', 'a71a1f3bcbfef47a5077f02af7087643'],
  ['_version', 'stable'],
  ['_plyver', '20240611'],
  ['_nettype', '4'],
  ['_uspace', '0'],
  ['_eset', ''],
  ['_app_coop_md5', '66cd5a8a6dd3c94a57c6988ca8960278'],
];

/**
 * The path and query of one operation exactly as the client sends it: extra parameters first
 * (`ref` empty, then `is_from_gallery` for the diversion), then the common ones.
 * @see seed "Operations" and shared/fixtures/client-requests.txt
 */
export function clientPath(operation: OperationName, extra: { is_from_gallery?: 'true' | 'false' } = {}): string {
  const pairs: Array<readonly [string, string]> = [];
  for (const p of OPERATIONS[operation].extraParameters) {
    if (p.name === 'ref') pairs.push(['ref', '']);
    if (p.name === 'is_from_gallery') pairs.push(['is_from_gallery', extra.is_from_gallery ?? 'true']);
  }
  // `_ts` is the time of the request, as the client sends it (a fixed one would drift out of the
  // server's accepted clock skew as the years pass).
  pairs.push(
    ...CLIENT_COMMON_QUERY.map(([k, v]) =>
      k === '_ts' ? (['_ts', String(Math.floor(Date.now() / 1000))] as const) : ([k, v] as const),
    ),
  );
  return `${OPERATIONS[operation].path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}
