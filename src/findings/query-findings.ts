import type { OperationName } from '../contract/core.js';
import { splitQuery } from '../normalise/index.js';
import { MAX_TS_SKEW_SECONDS, requestFindings, type Finding } from './request-findings.js';

/** The most distinct queries (volatile values set aside) whose findings are remembered. */
export const MAX_REMEMBERED_QUERIES = 1024;

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
  const key = stableQuery(search, nowSeconds);
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
 * `undefined` when one of them is not well-formed (its finding names the value: not remembered) or
 * when a parameter name is written with an escape or a `+` (its decoded name decides: checked in
 * full). Every occurrence is checked, so which one a rule reads (the first `_ts` for the clock, the
 * last for the format) does not matter; their number and places stay in the key. One pass over the
 * text by offsets: no regular expression, no split, only the key's slices are made.
 */
function stableQuery(search: string, nowSeconds: number): string | undefined {
  let key = '';
  let kept = 0;
  const end = search.length;
  for (let at = 0; at <= end; ) {
    let next = search.indexOf('&', at);
    if (next < 0) next = end;
    let equals = -1;
    for (let i = at; i < next; i++) {
      const c = search.charCodeAt(i);
      if (c === 61 /* = */) {
        equals = i;
        break;
      }
      if (c === 37 /* % */ || c === 43 /* + */) return undefined;
    }
    if (equals >= 0) {
      const length = equals - at;
      const nonce = length === 6 && search.startsWith('_nonce', at);
      if (nonce || (length === 3 && search.startsWith('_ts', at))) {
        if (nonce ? !isInteger(search, equals + 1, next) : !isNearSeconds(search, equals + 1, next, nowSeconds)) return undefined;
        key += search.slice(kept, equals + 1);
        kept = next;
      }
    }
    at = next + 1;
  }
  return kept === 0 ? search : key + search.slice(kept);
}

/** Whether `text[from, to)` is a (possibly negative) integer written in digits: a well-formed `_nonce`. */
function isInteger(text: string, from: number, to: number): boolean {
  if (from < to && text.charCodeAt(from) === 45 /* - */) from++;
  return from < to && allDigits(text, from, to);
}

/** Whether `text[from, to)` is Unix time in seconds (1–12 digits) within {@link MAX_TS_SKEW_SECONDS} of `nowSeconds`: a well-formed `_ts`. */
function isNearSeconds(text: string, from: number, to: number, nowSeconds: number): boolean {
  return to > from && to - from <= 12 && allDigits(text, from, to) && Math.abs(Number(text.slice(from, to)) - nowSeconds) <= MAX_TS_SKEW_SECONDS;
}

function allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
