import type { OperationName } from '../contract/core.js';
import { hasEncodedName, splitQuery } from '../normalise/index.js';
import { MAX_TS_SKEW_SECONDS, requestFindings, type Finding } from './request-findings.js';

/** The most distinct queries (volatile values set aside) whose findings are remembered. */
export const MAX_REMEMBERED_QUERIES = 1024;

/** A `_nonce` or `_ts` pair as sent (its name not percent-encoded), with its raw value. */
const VOLATILE_PAIR = /(^|&)(_nonce|_ts)=([^&]*)/g;
const NONCE = /^-?\d+$/;
const TS = /^\d{1,12}$/;

const remembered = new Map<string, readonly Finding[]>();

/**
 * The findings of a request to `operation` whose raw query string (without `?`) is `search`:
 * exactly `requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds })`, but a
 * client sends the same query again and again except for its volatile values (`_nonce`, `_ts`;
 * docs/contract.md#common-query-parameters), so the findings are remembered by the query with those values
 * taken out, when they are well-formed (`_nonce` an integer, `_ts` Unix time in seconds within
 * {@link MAX_TS_SKEW_SECONDS} of `nowSeconds`, both written without escapes) and checked afresh
 * otherwise. At most {@link MAX_REMEMBERED_QUERIES} queries are remembered (then forgotten all at once).
 *
 * The array returned may be shared between requests and is frozen: never change it. Never throws.
 * `nowSeconds` is Unix time in **seconds** (default: now).
 *
 * @example queryFindings('meta/cp', '_region=IN&_nonce=42&_ts=1718000000', false)
 */
export function queryFindings(operation: OperationName, search: string, hasBody: boolean, nowSeconds = Math.floor(Date.now() / 1000)): readonly Finding[] {
  // A query whose names are encoded is checked in full, never remembered.
  const key = hasEncodedName(search) ? undefined : stableQuery(search, nowSeconds);
  if (key === undefined) return requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds });
  const cacheKey = `${operation}${hasBody ? '+' : ' '}${key}`;
  let findings = remembered.get(cacheKey);
  if (!findings) {
    findings = Object.freeze(requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds }).map((f) => Object.freeze(f)));
    if (remembered.size >= MAX_REMEMBERED_QUERIES) remembered.clear();
    remembered.set(cacheKey, findings);
  }
  return findings;
}

/**
 * `search` with the values of its `_nonce` and `_ts` pairs taken out (`_nonce=&_ts=`), or
 * `undefined` when one of them is not well-formed (its finding names the value: not remembered).
 * Every occurrence is checked, so which one a rule reads (the first `_ts` for the clock, the last
 * for the format) does not matter; their number and places stay in the key.
 */
function stableQuery(search: string, nowSeconds: number): string | undefined {
  let clean = true;
  const key = search.replace(VOLATILE_PAIR, (_pair, lead: string, name: string, value: string) => {
    if (name === '_nonce' ? !NONCE.test(value) : !TS.test(value) || Math.abs(Number(value) - nowSeconds) > MAX_TS_SKEW_SECONDS) clean = false;
    return `${lead}${name}=`;
  });
  return clean ? key : undefined;
}
