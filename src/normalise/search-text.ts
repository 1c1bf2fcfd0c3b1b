/**
 * Finding secrets in text however it is escaped: the text is decoded once (percent-escapes, JSON
 * escapes, `+` for a space) into a plain copy that remembers where each character came from, the
 * plain forms of a secret (the value, its base64, its hex) are found in the copy with `indexOf`, and
 * each find is mapped back to the span of the original text it came from. Linear in the text, whatever
 * the secret's length. Any runtime.
 * @module
 */

/** A text decoded for searching; `from[i]` is where decoded character `i` starts in the original (`from[length]` is the original's length). */
interface Decoded {
  text: string;
  from: Int32Array | undefined;
}

/** Which escapes a view of the text decodes; `twice`: JSON escapes of JSON inside a JSON string. */
interface Decoding {
  percent: boolean;
  plusIsSpace: boolean;
  twice?: boolean;
}

/**
 * The views a text is searched in: as written (a secret may itself hold `%00` or `\"`), JSON escapes
 * decoded, and percent-escapes decoded too, with `+` as itself and as a space.
 */
const VIEWS: readonly Decoding[] = [
  { percent: true, plusIsSpace: false },
  { percent: true, plusIsSpace: true },
  { percent: false, plusIsSpace: false },
  { percent: false, plusIsSpace: false, twice: true },
];

/**
 * Decodes `text` for searching: JSON escapes (`\uXXXX`, `\/`, `\\`, ...); with `percent`, `%XX` runs as
 * UTF-8 (as single bytes in `binary` mode, where the text holds one byte per character) and `+` as a
 * space when `plusIsSpace`; with `twice`, the JSON escapes of the result once more.
 */
function decode(text: string, decoding: Decoding, binary: boolean): Decoded {
  const once = decodeOnce(text, decoding, binary);
  if (!decoding.twice || !once.text.includes('\\')) return once;
  const again = decodeOnce(once.text, { percent: false, plusIsSpace: false }, binary);
  if (!again.from || !once.from) return again.from ? again : once;
  const from = again.from.map((at) => once.from![at]!);
  return { text: again.text, from };
}

/** The number written by `digits` hex digits at `at`, or -1. */
function hexNumber(text: string, at: number, digits: number): number {
  const written = text.slice(at, at + digits);
  return written.length === digits && /^[0-9A-Fa-f]+$/.test(written) ? parseInt(written, 16) : -1;
}

/** JSON's short escapes by the code of the letter after the backslash. */
const SHORT_ESCAPES: Record<number, number> = { 92: 92, 47: 47, 34: 34, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 };

// Keeps a leading U+FEFF (a BOM would otherwise be dropped and shift every index); a lone surrogate
// becomes U+FFFD, one unit for one, so indexes stay where they were.
const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** The text of the first `length` UTF-16 code units. */
function codesToString(codes: Uint16Array, length: number): string {
  return utf16.decode(codes.subarray(0, length));
}

/** A code point decoded from the UTF-8 escapes `%XX%XX…` at `at`, with where they end; `undefined` when they are not UTF-8. */
function utf8Escapes(text: string, at: number, lead: number): { point: number; end: number } | undefined {
  const size = lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
  if (!size) return undefined;
  let point = lead & (size === 2 ? 0x1f : size === 3 ? 0x0f : 0x07);
  let end = at + 3;
  for (let k = 1; k < size; k++, end += 3) {
    if (text.charCodeAt(end) !== 37) return undefined;
    const byte = hexNumber(text, end + 1, 2);
    if (byte < 0 || (byte & 0xc0) !== 0x80) return undefined;
    point = (point << 6) | (byte & 0x3f);
  }
  if (
    (size === 3 && point < 0x800) ||
    (size === 4 && (point < 0x10000 || point > 0x10ffff)) ||
    (point >= 0xd800 && point <= 0xdfff)
  )
    return undefined;
  return { point, end };
}

function decodeOnce(text: string, { percent, plusIsSpace }: Decoding, binary: boolean): Decoded {
  if (!text.includes('\\') && !(percent && (text.includes('%') || (plusIsSpace && text.includes('+')))))
    return { text, from: undefined };
  const length = text.length;
  // Decoded text is never longer than the original.
  const out = new Uint16Array(length);
  const from = new Int32Array(length + 1);
  let n = 0;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === 37 && percent) {
      const byte = hexNumber(text, i + 1, 2);
      if (byte >= 0 && (binary || byte < 0x80)) {
        out[n] = byte;
        from[n++] = i;
        i += 3;
        continue;
      }
      const decoded = byte >= 0 ? utf8Escapes(text, i, byte) : undefined;
      if (decoded) {
        if (decoded.point >= 0x10000) {
          const v = decoded.point - 0x10000;
          out[n] = 0xd800 + (v >> 10);
          from[n++] = i;
          out[n] = 0xdc00 + (v & 0x3ff);
          from[n++] = i;
        } else {
          out[n] = decoded.point;
          from[n++] = i;
        }
        i = decoded.end;
        continue;
      }
    } else if (code === 43 && plusIsSpace && percent) {
      out[n] = 32;
      from[n++] = i;
      i++;
      continue;
    } else if (code === 92) {
      // JSON: each pair of backslashes is one; an odd one escapes what follows.
      let j = i;
      while (text.charCodeAt(j) === 92) j++;
      for (let k = i; k + 1 < j; k += 2) {
        out[n] = 92;
        from[n++] = k;
      }
      if ((j - i) % 2 === 0) {
        i = j;
        continue;
      }
      const next = text.charCodeAt(j);
      const unit = next === 117 || next === 85 ? hexNumber(text, j + 1, 4) : -1;
      if (unit >= 0) {
        if (binary && unit >= 0x80) {
          for (const b of new TextEncoder().encode(String.fromCharCode(unit))) {
            out[n] = b;
            from[n++] = j - 1;
          }
        } else {
          out[n] = unit;
          from[n++] = j - 1;
        }
        i = j + 5;
      } else if (SHORT_ESCAPES[next] !== undefined) {
        out[n] = SHORT_ESCAPES[next]!;
        from[n++] = j - 1;
        i = j + 1;
      } else {
        out[n] = 92;
        from[n++] = j - 1;
        i = j;
      }
      continue;
    }
    out[n] = code;
    from[n++] = i;
    i++;
  }
  from[n] = length;
  return { text: codesToString(out, n), from: from.subarray(0, n + 1) };
}

/** Lower-cases ASCII letters only, so that every index stays where it was. */
const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/** A span of the original text: `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** What to look for in a text: plain strings (found exactly, or in ASCII lower case with `anyCase`), each with a label. */
export interface Needle<L> {
  text: string;
  label: L;
  anyCase?: boolean;
}

/** Texts longer than twice this (in characters) are searched window by window, so the position map stays small. */
const WINDOW = 1 << 20;

/**
 * Every span of `text` that decodes to one of the needles (see {@link decode}), with the needle's
 * label; `accept` may turn a find down (say, an identifier that is not a whole value). Spans do not
 * overlap: of two that do, the one that starts first (or, starting together, the longer) wins.
 */
export function findDecoded<L>(
  text: string,
  needles: ReadonlyArray<Needle<L>>,
  binary: boolean,
  accept: (span: Span, label: L) => boolean = () => true,
): Array<Span & { label: L }> {
  const found: Array<Span & { label: L }> = [];
  if (text === '' || needles.length === 0) return found;
  if (text.length <= 2 * WINDOW) findIn(text, 0, needles, binary, accept, found);
  else {
    // Windows overlap by more than any escaped needle can be long, so every find lies whole in one.
    const overlap = 16 * Math.max(...needles.map((n) => n.text.length)) + 64;
    for (let start = 0; start < text.length; start += WINDOW)
      findIn(text.slice(start, start + WINDOW + overlap), start, needles, binary, accept, found);
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Array<Span & { label: L }> = [];
  for (const span of found) if (!kept.length || span.start >= kept[kept.length - 1]!.end) kept.push(span);
  return kept;
}

function findIn<L>(
  text: string,
  offset: number,
  needles: ReadonlyArray<Needle<L>>,
  binary: boolean,
  accept: (span: Span, label: L) => boolean,
  found: Array<Span & { label: L }>,
): void {
  const views: Decoded[] = [{ text, from: undefined }];
  if (text.includes('\\') || text.includes('%') || text.includes('+')) {
    for (const decoding of VIEWS)
      if (
        (decoding.percent && text.includes('%')) ||
        (decoding.plusIsSpace && text.includes('+')) ||
        (!decoding.percent && text.includes('\\'))
      )
        views.push(decode(text, decoding, binary));
  }
  for (const view of views) {
    let lower: string | undefined;
    for (const needle of needles) {
      if (needle.text === '') continue;
      const haystack = needle.anyCase ? (lower ??= asciiLower(view.text)) : view.text;
      const wanted = needle.anyCase ? asciiLower(needle.text) : needle.text;
      for (let at = haystack.indexOf(wanted); at >= 0; at = haystack.indexOf(wanted, at + 1)) {
        const start = offset + (view.from ? view.from[at]! : at);
        const end = offset + (view.from ? view.from[at + wanted.length]! : at + wanted.length);
        if (accept({ start, end }, needle.label)) found.push({ start, end, label: needle.label });
      }
    }
  }
}
