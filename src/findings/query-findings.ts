import type { OperationName } from '../contract/core.js';
import { queryValues } from '../normalise/index.js';
import { requestFindings, type Finding } from './request-findings.js';

/**
 * The findings of a request to `operation` whose raw query string (without `?`) is `search`:
 * `requestFindings` of its decoded values (`queryValues`). `nowSeconds` is Unix time in **seconds** (default: now).
 * Never throws.
 *
 * @example queryFindings('meta/cp', '_region=IN&_nonce=42&_ts=1718000000', false)
 */
export function queryFindings(
  operation: OperationName,
  search: string,
  hasBody: boolean,
  nowSeconds = Math.floor(Date.now() / 1000),
): Finding[] {
  return requestFindings({ operation, query: queryValues(search), hasBody, nowSeconds });
}
