import type { OperationName } from '../contract/core.js';
import { ESCAPED_NAME, nameEnd, splitQuery, textAt } from '../normalise/index.js';
import { MAX_TS_SKEW_SECONDS, requestFindings, type Finding } from './request-findings.js';

/** The most distinct queries (volatile values set aside) whose findings are remembered. */
export const MAX_REMEMBERED_QUERIES = 1024;

/** Per operation, then without (0) and with (1) a body: the remembered queries by their text with the volatile values taken out. */
const remembered = new Map<OperationName, [Map<string, RecentQuery>, Map<string, RecentQuery>]>();
/** How many queries {@link remembered} holds in all. */
let rememberedCount = 0;

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
  // One of the operation's last queries, volatile values aside: compared in place, no scan, no key made.
  let recent = recentQueries.get(operation);
  if (recent) for (const known of recent) if (known.hasBody === hasBody && sameQuery(search, known.pieces, nowSeconds)) return known.findings;
  // A query whose names are encoded, or with a malformed volatile value, is checked in full, never remembered.
  const cutCount = volatileCuts(search, nowSeconds);
  if (cutCount < 0) return requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds });
  // The key: the text around the volatile values, in one piece (the query itself when it has none).
  let key = cutCount === 0 ? search : search.slice(0, cuts[0]);
  for (let i = 1; i <= cutCount; i++) key += search.slice(cuts[2 * i - 1], i < cutCount ? cuts[2 * i] : search.length);
  let byBody = remembered.get(operation);
  if (!byBody) remembered.set(operation, (byBody = [new Map(), new Map()]));
  const ofQueries = byBody[hasBody ? 1 : 0];
  // A remembered query (one of many a client rotates over) goes to the front of the recent ones as it is: nothing is made.
  let known = ofQueries.get(key);
  if (!known) {
    const pieces: string[] = [];
    let kept = 0;
    for (let i = 0; i < cutCount; i++) {
      pieces.push(search.slice(kept, cuts[2 * i]));
      kept = cuts[2 * i + 1]!;
    }
    pieces.push(search.slice(kept));
    const findings = Object.freeze(requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds }).map((f) => Object.freeze(f)));
    if (rememberedCount >= MAX_REMEMBERED_QUERIES) {
      remembered.clear();
      rememberedCount = 0;
      remembered.set(operation, (byBody = [new Map(), new Map()]));
    }
    byBody[hasBody ? 1 : 0].set(key, (known = { hasBody, pieces, findings }));
    rememberedCount++;
  }
  if (!recent) recentQueries.set(operation, (recent = []));
  if (recent.unshift(known) > RECENT_QUERIES) recent.pop();
  return known.findings;
}

/** How many of an operation's last distinct queries {@link queryFindings} compares in place before it makes a key. */
const RECENT_QUERIES = 4;

/** A recent query of an operation: its text around the volatile values (`pieces`), and its findings. */
interface RecentQuery {
  hasBody: boolean;
  pieces: readonly string[];
  findings: readonly Finding[];
}
/** Per operation, its last {@link RECENT_QUERIES} distinct queries, newest first. */
const recentQueries = new Map<OperationName, RecentQuery[]>();

/** The offsets `[start, end)` of the volatile values found by the last {@link volatileCuts}, two numbers per value (reused: no allocation per request). */
const cuts: number[] = [];

/**
 * Whether `search` is `pieces` (a remembered query's text around its volatile values, each piece but
 * the last ending with `_nonce=` or `_ts=`) with well-formed volatile values between them. The
 * text outside the values is the remembered query's, so its names are too (none encoded) and its
 * volatile pairs are at the same places: no scan of the names is needed.
 */
function sameQuery(search: string, pieces: readonly string[], nowSeconds: number): boolean {
  const last = pieces.length - 1;
  const tail = pieces[last]!;
  // The end first: queries a client rotates over often share their start (its common parameters).
  if (!search.endsWith(tail)) return false;
  let at = 0;
  for (let i = 0; i < last; i++) {
    const piece = pieces[i]!;
    if (!textAt(search, at, piece)) return false;
    const from = at + piece.length;
    let to = search.indexOf('&', from);
    if (to < 0) to = search.length;
    // The piece ends with `_ts=` (4 characters) or `_nonce=`.
    if (piece.charCodeAt(piece.length - 2) === 115 /* s of _ts= */ ? !isNearSeconds(search, from, to, nowSeconds) : !isInteger(search, from, to)) return false;
    at = to;
  }
  return at + tail.length === search.length;
}

/**
 * Finds the values of the `_nonce` and `_ts` pairs of `search` (their offsets go to {@link cuts})
 * and returns how many there are, or -1 when one of them is not well-formed (its finding names the
 * value: not remembered) or when a parameter name is written with an escape or a `+` (its decoded
 * name decides: checked in full). Every occurrence is checked, so which one a rule reads (the first
 * `_ts` for the clock, the last for the format) does not matter; their number and places stay in
 * the key. One pass over the names by offsets (values are skipped with `indexOf`): no regular
 * expression, no split, no string made.
 */
function volatileCuts(search: string, nowSeconds: number): number {
  let count = 0;
  const end = search.length;
  for (let at = 0; at <= end; ) {
    let next = search.indexOf('&', at);
    if (next < 0) next = end;
    const equals = nameEnd(search, at, next);
    if (equals === ESCAPED_NAME) return -1;
    if (equals >= 0) {
      const length = equals - at;
      const nonce = length === 6 && textAt(search, at, '_nonce');
      if (nonce || (length === 3 && textAt(search, at, '_ts'))) {
        if (nonce ? !isInteger(search, equals + 1, next) : !isNearSeconds(search, equals + 1, next, nowSeconds)) return -1;
        cuts[2 * count] = equals + 1;
        cuts[2 * count + 1] = next;
        count++;
      }
    }
    at = next + 1;
  }
  return count;
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
