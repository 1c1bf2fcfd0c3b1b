import { distance } from 'fastest-levenshtein';
import type { ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

/** The prefix of every message mockvideo prints or throws; {@link prefixed} is the one place that adds it. */
const PREFIX = '[mockvideo]';

/**
 * `text` behind the prefix and a space. The one place the prefix is added, for every message
 * mockvideo throws ({@link PrefixedError}) or prints (`say` of src/stderr.ts, msw's console). HTTP
 * error bodies carry their text without it (their `code` says mockvideo's).
 * @example prefixed('Kept serving the last good recordings.') // the prefix, then that sentence
 */
export function prefixed(text: string): string {
  return `${PREFIX} ${text}`;
}

/**
 * An error whose `message` is `text` behind the prefix; `text` is kept for a message or an error
 * body that embeds it (`--fault x: <text>`, `{ "error": "<text>" }`), so nothing strips the prefix again.
 */
export class PrefixedError extends Error {
  /** The message without the prefix. */
  readonly text: string;
  constructor(text: string, options?: ErrorOptions) {
    super(prefixed(text), options);
    this.name = 'PrefixedError';
    this.text = text;
  }
}

/**
 * The message of `error` without the prefix: a {@link PrefixedError}'s `text`, another error's
 * `message`, or `String(error)` for a value that is none.
 * @example errorText(new MockvideoError('MV_USAGE', '--port must be a number.')) // '--port must be a number.'
 */
export function errorText(error: unknown): string {
  if (error instanceof PrefixedError) return error.text;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The one error class mockvideo throws on bad input. `message` says what failed, why and what to do
 * next, behind the prefix (`text` without it); `code` is stable for tools, one of
 * `ERROR_CODES` (docs/errors.md has its cause and how to solve it).
 */
export class MockvideoError extends PrefixedError {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, text: string, options?: ErrorOptions) {
    super(text, options);
    this.name = 'MockvideoError';
    this.code = code;
  }
}

/**
 * One problem in a scenario file: the file (or scenario name when it came from memory), the JSON
 * path inside it (e.g. `operations["meta/cp"][0].data[2].id`, `''` for the whole file) and the rule.
 */
export interface ScenarioProblem {
  source: string;
  path: string;
  message: string;
}

/** Formats a problem as one line: `scenarios/x.json at operations.ad_config.data: expected an object`. */
export function formatProblem(problem: ScenarioProblem): string {
  return `${problem.source}${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`;
}

/**
 * Thrown when one or more scenario files are invalid; `problems` lists every one found.
 * @see formatProblem for the line format.
 */
export class ScenarioError extends MockvideoError {
  readonly problems: readonly ScenarioProblem[];
  constructor(problems: readonly ScenarioProblem[]) {
    super(
      'MV_SCENARIO_INVALID',
      `Invalid scenario${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\nFix the file or run "mockvideo validate" to list every problem.`,
    );
    this.name = 'ScenarioError';
    this.problems = problems;
  }
}

/**
 * The candidate closest to `typed` (edit distance, library `fastest-levenshtein`), when it is close
 * enough to be a typo: at most a third of the longer word's letters apart (at least 2, at most 3;
 * a swap of two letters, `prot` for `port`, is 2).
 * `undefined` when none is, or `typed` is a candidate itself.
 *
 * @example closestName('galery', ['default', 'gallery']) // 'gallery'
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === typed) return undefined;
    const d = distance(typed.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best === undefined) return undefined;
  const limit = Math.min(3, Math.max(2, Math.floor(Math.max(typed.length, best.length) / 3)));
  return bestDistance <= limit ? best : undefined;
}

/**
 * ` Did you mean "gallery"?` when `typed` is a typo of one of `known` (see {@link closestName}),
 * else `''`: the hint every "unknown scenario" message ends with (the CLI, `createHandlers`, the
 * `/scenarios/<name>` prefix, the admin API's `PUT /__mockvideo/scenario`).
 */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const closest = closestName(typed, known);
  return closest === undefined ? '' : ` Did you mean "${closest}"?`;
}

/**
 * Thrown for a scenario name that is not loaded; the message lists the known names and, for a typo
 * of one, ends with `Did you mean "gallery"?`.
 */
export class UnknownScenarioError extends MockvideoError {
  readonly scenario: string;
  readonly known: readonly string[];
  constructor(scenario: string, known: readonly string[]) {
    super(
      'MV_SCENARIO_UNKNOWN',
      `Unknown scenario "${scenario}". Known scenarios: ${known.join(', ')}.${didYouMean(scenario, known)}`,
    );
    this.name = 'UnknownScenarioError';
    this.scenario = scenario;
    this.known = known;
  }
}

/**
 * Formats a JSON path (as zod reports it: keys and indexes) the way a person reads it:
 * `operations["meta/cp"][0].data`.
 */
export function formatJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * Thrown when recording files are corrupt or hand-broken: replay refuses to start. Takes every problem
 * found as the reader reports it (`{ file, path, message }`: file relative to the recording folder,
 * JSON path, rule); `problems` lists them as `{ source, path, message }`.
 */
export class RecordingError extends MockvideoError {
  readonly problems: readonly ScenarioProblem[];
  constructor(dir: string, found: readonly { file: string; path: string; message: string }[]) {
    const problems = found.map(({ file, path, message }) => ({ source: file, path, message }));
    super(
      'MV_RECORDING_INVALID',
      `Invalid recording${problems.length === 1 ? '' : 's'} in ${dir}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\nFix or delete the file${problems.length === 1 ? '' : 's'} (or re-record), then run "mockvideo validate ${dir}".`,
    );
    this.name = 'RecordingError';
    this.problems = problems;
  }
}

/** The offset of the first character of `text` at which JSON's grammar (RFC 8259) fails, or `text.length` when the text ends too soon; `-1` for JSON. */
function jsonErrorOffset(text: string): number {
  const n = text.length;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const open: string[] = [];
  let i = 0;
  const space = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** Reads a string at `i` (a `"`); false where it breaks, `i` on the bad character. */
  const string = () => {
    for (i++; i < n;) {
      const c = text[i]!;
      if (c === '"') return ++i > 0;
      if (c < ' ') return false;
      if (c !== '\\') i++;
      else if ('"\\/bfnrt'.includes(text[i + 1] ?? '')) i += 2;
      else if (text[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
      else return false;
    }
    return false;
  };
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    space();
    const c = text[i];
    if (state === 'key') {
      if (c !== '"' || !string()) return i;
      space();
      if (text[i] !== ':') return i;
      i++;
      state = 'value';
    } else if (state === 'value') {
      state = 'after';
      if (c === '{' || c === '[') {
        i++;
        space();
        if (text[i] === (c === '{' ? '}' : ']')) i++;
        else state = open.push(c) && c === '{' ? 'key' : 'value';
      } else if (c === '"') {
        if (!string()) return i;
      } else if (c !== undefined && /[-\d]/.test(c)) {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return i + 1;
        i = NUMBER.lastIndex;
      } else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
        if (!literal) return i;
        i += literal.length;
      }
    } else {
      const top = open.at(-1);
      if (top === undefined) return i < n ? i : -1;
      if (c === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        i++;
        open.pop();
      } else return i;
    }
  }
}

/**
 * Why `text` is not JSON, in one line naming where and never quoting it (a file's content stays out
 * of every message: V8 quotes the text around a bad token, `"secret…" is not valid JSON`):
 * `invalid JSON (line 3, column 7): Expected ',' or '}' after property value`. `error` is what
 * `JSON.parse(text)` threw; its words are kept only when they quote nothing.
 * @example jsonSyntaxProblem(error, 'made-up text') // 'invalid JSON (line 1, column 1): unexpected character'
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  const offset = jsonErrorOffset(text);
  const before = text.slice(0, Math.max(0, offset));
  const where =
    offset < 0 ? '' : ` (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`;
  const said = error instanceof Error ? error.message.replace(/ (?:in JSON )?at position \d+.*$/s, '') : '';
  const cause =
    said && !/["']|^Unexpected token/.test(said.replace(/'[,:}\]]'/g, ''))
      ? said
      : offset >= text.length
        ? 'the text ends too soon'
        : 'unexpected character';
  return `invalid JSON${where}: ${cause}`;
}
