/**
 * One query parameter as it appears in the URL: name and value still percent-encoded, exactly as
 * sent (`_model=Redmi%20Note%2012%20Pro%2B` → `['_model', 'Redmi%20Note%2012%20Pro%2B']`).
 */
export type RawPair = readonly [name: string, value: string];

/**
 * Splits a raw query string (with or without the leading `?`) into `[name, value]` pairs in the
 * order sent, repeated names kept (`ref=&ref=app` → two pairs). Values stay encoded; a pair without
 * `=` has the value `''`. Never throws.
 *
 * @example splitQuery('?ref=&ref=app&x') // [['ref', ''], ['ref', 'app'], ['x', '']]
 * @see docs/contract.md#operations: `ref` is sent empty before the common `ref`, so it occurs twice.
 */
export function splitQuery(search: string): RawPair[] {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return [];
  return text
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
    });
}

/**
 * Decodes one query component the way a form decoder does (`+` is a space, `%XX` a byte of UTF-8)
 * without ever throwing: a malformed `%` sequence (`%zz`, a cut-off `%E2%82`) is kept as written.
 *
 * @example decodeComponent('Redmi%20Note+12%2B') // 'Redmi Note 12+'
 * @example decodeComponent('100%') // '100%'
 */
export function decodeComponent(raw: string): string {
  // Most components (names, ids, versions) have nothing to decode.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  const text = raw.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // Decode each run of valid escapes on its own; keep whatever does not decode.
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * Every parameter of a query, decoded (see {@link decodeComponent}): name → values in the order
 * sent, names in the order first sent. The one decoding of a request's query that the contract
 * findings and the replay index share (see `createRoutes`).
 */
export type QueryValues = ReadonlyMap<string, readonly string[]>;

/**
 * The {@link QueryValues} of a raw query string (with or without the leading `?`, split as
 * {@link splitQuery} splits it) or of raw pairs. A string is read without making the pairs, and
 * a component is decoded only when it holds a `%` or a `+`, found by one search for each that
 * serves every pair up to it: with two `includes` per component, string searches took 4.3% of
 * `serve`'s CPU samples, now 1.2% (`perf record` of the bench's `serve` case, Node 20, 2 December).
 *
 * @example queryValues('ref=&ref=app&_region=IN') // Map { 'ref' → ['', 'app'], '_region' → ['IN'] }
 */
export function queryValues(query: string | readonly RawPair[]): QueryValues {
  const values = new Map<string, string[]>();
  if (typeof query !== 'string') {
    for (const [rawName, rawValue] of query) addValue(values, decodeComponent(rawName), decodeComponent(rawValue));
    return values;
  }
  const { length } = query;
  // The next `=`, `%` and `+` at or after `start` (`length`: none left).
  let equals = -1;
  let percent = -1;
  let plus = -1;
  for (let start = query.startsWith('?') ? 1 : 0; start < length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = length;
    if (end > start) {
      if (equals < start) equals = nextIndex(query, '=', start);
      if (percent < start) percent = nextIndex(query, '%', start);
      if (plus < start) plus = nextIndex(query, '+', start);
      const encoded = percent < end || plus < end;
      const name = query.slice(start, equals < end ? equals : end);
      const value = equals < end ? query.slice(equals + 1, end) : '';
      addValue(values, encoded ? decodeComponent(name) : name, encoded ? decodeComponent(value) : value);
    }
    start = end + 1;
  }
  return values;
}

/** Where `char` next occurs in `text` from `from` on, or `text.length` when it does not. */
function nextIndex(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/** Adds one decoded parameter to `values`, after those of the same name. */
function addValue(values: Map<string, string[]>, name: string, value: string): void {
  const seen = values.get(name);
  if (seen) seen.push(value);
  else values.set(name, [value]);
}
