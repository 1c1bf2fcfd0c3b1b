import type { OperationName } from '../contract/core.js';
import { splitQuery, textAt } from '../normalise/index.js';
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
  // A remembered query (one of many a client rotates over) goes to the front of the recent ones as it is: nothing is made.
  const known = rememberedQuery(operation, search, hasBody, nowSeconds, keyOfCuts(search, cutCount), cutCount);
  if (!recent) recentQueries.set(operation, (recent = []));
  if (recent.unshift(known) > RECENT_QUERIES) recent.pop();
  return known.findings;
}

/**
 * The key under which {@link queryFindings} remembers the findings of `search` (a raw query string
 * without `?`): its text with the values of its `_nonce` and `_ts` pairs taken out (`_nonce=&_ts=`),
 * when each is well-formed (see {@link queryFindings}; `nowSeconds` in **seconds**); `undefined` when
 * one is not, or when a parameter name is written with an escape or a `+` (such a query is checked
 * in full every time). Two queries with the same key differ at most by the values of those pairs:
 * the replayer may remember its exact matches by it too (see `Replayer.find`), so a request makes one
 * key for both. Never throws.
 *
 * @example volatileFreeQuery('_region=IN&_nonce=42&_ts=1718000000', 1718000000) // '_region=IN&_nonce=&_ts='
 */
export function volatileFreeQuery(search: string, nowSeconds: number): string | undefined {
  const cutCount = volatileCuts(search, nowSeconds);
  return cutCount < 0 ? undefined : keyOfCuts(search, cutCount);
}

/**
 * Exactly {@link queryFindings}, for a request whose key {@link volatileFreeQuery} already made with
 * the same `nowSeconds` (`key`; `undefined`: checked in full): the findings remembered under `key`,
 * looked up with no comparison in place and no scan of the query. For a server that makes the key
 * anyway (replay: see `Replayer.find`), so that a client rotating over many queries costs what one
 * repeating a few does. The array returned is shared and frozen.
 */
export function keyedQueryFindings(operation: OperationName, search: string, hasBody: boolean, nowSeconds: number, key: string | undefined): readonly Finding[] {
  if (key === undefined) return requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds });
  const known = remembered.get(operation)?.[hasBody ? 1 : 0].get(key);
  if (known) return known.findings;
  // A key made with another clock (a `_ts` no longer near it) is not remembered.
  const cutCount = volatileCuts(search, nowSeconds);
  if (cutCount < 0) return requestFindings({ operation, query: splitQuery(search), hasBody, nowSeconds });
  return rememberedQuery(operation, search, hasBody, nowSeconds, key, cutCount).findings;
}

/** The key of `search` from the {@link cuts} of the last {@link volatileCuts} (`cutCount` of them): the text around the volatile values, in one piece (the query itself when it has none). */
function keyOfCuts(search: string, cutCount: number): string {
  let key = cutCount === 0 ? search : search.slice(0, cuts[0]);
  for (let i = 1; i <= cutCount; i++) key += search.slice(cuts[2 * i - 1], i < cutCount ? cuts[2 * i] : search.length);
  return key;
}

/** The remembered query of `key` (made from `search`, whose {@link cuts} the last {@link volatileCuts} found: `cutCount`), remembered now if it was not. */
function rememberedQuery(operation: OperationName, search: string, hasBody: boolean, nowSeconds: number, key: string, cutCount: number): RecentQuery {
  let byBody = remembered.get(operation);
  if (!byBody) remembered.set(operation, (byBody = [new Map(), new Map()]));
  const known = byBody[hasBody ? 1 : 0].get(key);
  if (known) return known;
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
  const made: RecentQuery = { hasBody, pieces, findings };
  byBody[hasBody ? 1 : 0].set(key, made);
  rememberedCount++;
  return made;
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
  if (search.length < tail.length || !textAt(search, search.length - tail.length, tail)) return false;
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
 * the key. Looks for `%`, `+`, `_nonce=` and `_ts=` with `indexOf` (a pair's name starts the query
 * or follows `&`), not name by name: no regular expression, no split, no string made.
 */
function volatileCuts(search: string, nowSeconds: number): number {
  if (hasEscapedName(search, '%') || hasEscapedName(search, '+')) return -1;
  let count = 0;
  let nonceAt = pairAt(search, '_nonce=', 0);
  let tsAt = pairAt(search, '_ts=', 0);
  while (nonceAt >= 0 || tsAt >= 0) {
    const nonce = tsAt < 0 || (nonceAt >= 0 && nonceAt < tsAt);
    const from = nonce ? nonceAt + 7 : tsAt + 4;
    let next = search.indexOf('&', from);
    if (next < 0) next = search.length;
    if (nonce ? !isInteger(search, from, next) : !isNearSeconds(search, from, next, nowSeconds)) return -1;
    cuts[2 * count] = from;
    cuts[2 * count + 1] = next;
    count++;
    if (nonce) nonceAt = pairAt(search, '_nonce=', next);
    else tsAt = pairAt(search, '_ts=', next);
  }
  return count;
}

/** The offset of the first pair of `search` from `from` on that starts with `start` (a name and its `=`), or -1. */
function pairAt(search: string, start: string, from: number): number {
  for (let at = search.indexOf(start, from); at >= 0; at = search.indexOf(start, at + 1)) {
    if (at === 0 || search.charCodeAt(at - 1) === 38 /* & */) return at;
  }
  return -1;
}

/** Whether `mark` (`%` or `+`) occurs in a name of `search`: before the first `=` of its pair, or in a pair without one (as `nameEnd` reads a name). */
function hasEscapedName(search: string, mark: string): boolean {
  for (let at = search.indexOf(mark); at >= 0; at = search.indexOf(mark, at + 1)) {
    // Back to the start of its pair: an `=` on the way puts it in the value.
    let i = at - 1;
    while (i >= 0 && search.charCodeAt(i) !== 61 /* = */ && search.charCodeAt(i) !== 38 /* & */) i--;
    if (i < 0 || search.charCodeAt(i) === 38) return true;
  }
  return false;
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
