import { OPERATIONS, type OperationName } from '../../src/contract/index.js';
import commonQuery from './client-common-query.json' with { type: 'json' };

/**
 * The common query parameters as the player client sends them, in the seed's table order, with the
 * made-up values of shared/fixtures/client-requests.txt (`_st` is a placeholder, never a real token).
 * Values are as they appear in the URL (already percent-encoded).
 */
export const CLIENT_COMMON_QUERY: ReadonlyArray<readonly [string, string]> = commonQuery as [string, string][];

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
