/**
 * What one POST to the analytics sink may hold, checked on the body's text before it is parsed: a
 * body over a bound is refused (413) having cost a scan of its first bytes, never the work of
 * parsing, checking and keeping its records (issue 39: 340,000 empty objects in 1 MB took 12 s,
 * stalled every device and answered 19.5 MB per 30 KB). Any runtime.
 * @module
 */

/** The most records one POST may hold (a JSON array's elements; an object or a form is one). */
const MAX_RECORDS_PER_POST = 100;

/**
 * The most JSON objects and arrays one POST may hold, the records and the body's array included: a
 * record is a flat map of string fields (seed "Events"), so a valid body holds at most
 * {@link MAX_RECORDS_PER_POST} + 1; this bound leaves room for records with nested values (each a
 * finding) and keeps JSON.parse from making hundreds of thousands of objects.
 */
const MAX_CONTAINERS_PER_POST = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Why the JSON text `text` is over a bound of one POST, as the sentence of a 413 (`undefined`
 * within them): more than {@link MAX_RECORDS_PER_POST} top-level array elements, or more than
 * {@link MAX_CONTAINERS_PER_POST} objects and arrays. Reads the text once, without parsing it, and
 * stops at the first bound passed. Not a validator: a text that is no JSON gets counted too (its
 * parse fails after).
 *
 * @example postOverBounds('[{},{}]') // undefined
 * @example postOverBounds(`[${'{},'.repeat(200)}{}]`) // 'This body holds more than 100 records; …'
 */
export function postOverBounds(text: string): string | undefined {
  let depth = 0;
  let containers = 0;
  // Commas between the elements of a top-level array: its records, less one.
  let commas = 0;
  const topIsArray = text.trimStart().charCodeAt(0) === OPEN_ARRAY;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not escaped by an odd run of backslashes.
      for (i = text.indexOf('"', i + 1); i > 0; i = text.indexOf('"', i + 1)) {
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
      if (i < 0) return undefined;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (++containers > MAX_CONTAINERS_PER_POST)
        return `This body holds more than ${MAX_CONTAINERS_PER_POST} JSON objects and arrays; the analytics sink takes at most ${MAX_CONTAINERS_PER_POST} per POST (a record is a flat map of string fields).`;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    else if (c === COMMA && depth === 1 && topIsArray && ++commas >= MAX_RECORDS_PER_POST)
      return `This body holds more than ${MAX_RECORDS_PER_POST} records; the analytics sink takes at most ${MAX_RECORDS_PER_POST} records per POST: send fewer per request.`;
  }
  return undefined;
}
