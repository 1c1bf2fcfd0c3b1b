/**
 * Finding secrets in text however it is escaped: each plain form of a secret (the value, its base64,
 * its hex) becomes a regular expression in which every character may also be written as a
 * percent-escape (`%XX` of its UTF-8 bytes, either hex case, once or twice: `%252F`; `+` or `%2B`
 * for a space), a JSON escape
 * (`\u00e9`, `\"`, `\/`) or the JSON escape of that escape (JSON inside a JSON string), so a find
 * is the span of the text as written. Any runtime.
 * @module
 */

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

/** `text` as a regex source that matches it literally. */
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each hex digit's value as a regex source that matches it in either case. */
const DIGIT = [...'0123456789abcdef'].map((d) => (d > '9' ? `[${d}${d.toUpperCase()}]` : d));
/** A byte (`0`–`255`) as two hex digits in either case, as a regex source. */
const hexByte = (byte: number) => DIGIT[byte >> 4]! + DIGIT[byte & 15]!;

/**
 * JSON's short escapes by the character they stand for, as regex sources after their first
 * backslash: once (`\"`) or as the JSON escape of that escape (`\\\"`, JSON inside a JSON string).
 */
const SHORT_ESCAPES: Record<string, string> = {
  '"': String.raw`(?:\\\\)?"`,
  '/': String.raw`\\{0,2}/`,
  '\b': String.raw`\\?b`,
  '\f': String.raw`\\?f`,
  '\n': String.raw`\\?n`,
  '\r': String.raw`\\?r`,
  '\t': String.raw`\\?t`,
};

/**
 * A run of `count` backslashes, each written the same way (`\\\\`, `\\`, `\u005c`, `\\u005c`,
 * `%5C` or as itself): read one way per run, a run is never tried in every mix of its forms.
 */
const backslashes = (count: number) =>
  `(?:${[String.raw`\\\\\\\\`, String.raw`\\\\`, String.raw`\\?\\[uU]005[cC]`, '%(?:25)?5[cC]', String.raw`\\`]
    .map((form) => `(?:${form}){${count}}`)
    .join('|')})`;

const utf8 = new TextEncoder();
/** A byte percent-encoded once (`%2F`) or twice (`%252F`: a link nested in a link, as the contract's `default` and `back_scheme`). */
const percent = (byte: number) => `%(?:25)?${hexByte(byte)}`;

/**
 * A regex source for one character (a code point other than `\`) as written in a text: as itself
 * (its UTF-8 bytes, one per character, in `binary` text), percent-escaped, a JSON escape (`\u00e9`,
 * `\"`) or the JSON escape of one.
 */
function characterPattern(char: string, binary: boolean): string {
  const bytes = char < '\x80' ? [char.charCodeAt(0)] : [...utf8.encode(char)];
  const unicode = char
    .split('')
    .map((unit) => `\\\\?[uU]${hexByte(unit.charCodeAt(0) >> 8)}${hexByte(unit.charCodeAt(0) & 255)}`)
    .join(String.raw`\\`);
  const escape = SHORT_ESCAPES[char] === undefined ? unicode : `${unicode}|${SHORT_ESCAPES[char]}`;
  const written = binary
    ? bytes.map((b) => `(?:${escapeRegex(String.fromCharCode(b))}|${percent(b)})`).join('')
    : `${bytes.map(percent).join('')}|${escapeRegex(char)}`;
  // A space may be written `+` (form encoding), and that `+` percent-encoded in turn.
  return `(?:\\\\(?:${escape})|${written}${char === ' ' ? '|\\+|%2[bB]' : ''})`;
}

/**
 * The patterns of the ASCII characters, in text and in binary: most characters of a needle. Building
 * them per needle made redacting a small exchange 3× slower (1.1 against 0.4 ms, Node 20). Built on
 * the first search, not at import: `import 'mockvideo'` spent about 4 ms of its own on them (Node
 * 24 + msw 3, issue 43), and a test that redacts nothing never needs them.
 */
let ascii: string[][] | undefined;
const asciiPatterns = () =>
  (ascii ??= [false, true].map((binary) =>
    Array.from({ length: 128 }, (_, code) => characterPattern(String.fromCharCode(code), binary)),
  ));

/** The regex source of a needle: its characters however escaped, a run of backslashes as one. */
const needlePattern = (text: string, binary: boolean) =>
  (text.match(/\\+|[^]/gu) ?? [])
    .map((part) =>
      part[0] === '\\'
        ? backslashes(part.length)
        : (asciiPatterns()[+binary]![part.charCodeAt(0)] ?? characterPattern(part, binary)),
    )
    .join('');

/**
 * A search for the needles however escaped (see {@link characterPattern}; `binary` for texts of one
 * byte per character, where a needle is found by its UTF-8 bytes): it gives every span of a text
 * that is a needle, with the needle's label; `accept` may turn a find down (say, an identifier that
 * is not a whole value). Spans do not overlap: of two that do, the one that starts first (or,
 * starting together, the longer) wins.
 */
export function searcher<L>(
  needles: ReadonlyArray<Needle<L>>,
  binary: boolean,
): (text: string, accept?: (span: Span, label: L) => boolean) => Array<Span & { label: L }> {
  const patterns = needles
    .filter((needle) => needle.text !== '')
    .map(({ text, label, anyCase }) => ({
      label,
      regex: new RegExp(needlePattern(text, binary), anyCase ? 'gi' : 'g'),
    }));
  return (text, accept = () => true) => {
    const found: Array<Span & { label: L }> = [];
    for (const { label, regex } of patterns) {
      regex.lastIndex = 0;
      for (let match = regex.exec(text); match; match = regex.exec(text)) {
        const span = { start: match.index, end: match.index + match[0].length };
        // Not from the middle of an escape: a backslash that an odd run of them before it escapes.
        let before = span.start;
        while (text[before - 1] === '\\') before--;
        const escaped = text[span.start] === '\\' && (span.start - before) % 2 === 1;
        if (!escaped && accept(span, label)) found.push({ ...span, label });
        regex.lastIndex = match.index + 1;
      }
    }
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Array<Span & { label: L }> = [];
    for (const span of found) if (!kept.length || span.start >= kept[kept.length - 1]!.end) kept.push(span);
    return kept;
  };
}
