/**
 * Recordings: their shape and their file text. Reading a file's value back (`parseRecording`, with
 * zod) is in `recording-schema.ts`, which the `normalise` barrel leaves out so that serving loads no zod.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import type { RecordedLatency } from '../latency/latency.js';
import type { RawPair } from './query.js';

/**
 * One recorded exchange, as stored in a recording file (one JSON file per exchange).
 *
 * - `request.query`: the raw `[name, value]` pairs in the order sent (still percent-encoded as the
 *   client wrote them), with secrets and identifiers replaced by placeholders.
 * - `response.body`: the exact body text (a decoded copy when the upstream compressed it), or
 *   `response.bodyBase64` when the bytes are not UTF-8.
 * - `matchKey`: the key it was stored under (see `matchKey`); replay recomputes it from `request`.
 * - `recordedAt`: ISO 8601 time of the exchange.
 * - `response.latency`: how long the upstream took (milliseconds to headers and to the last byte),
 *   when known; `replay --latency recorded` answers that late.
 */
export interface Recording {
  operation: OperationName;
  matchKey: string;
  recordedAt: string;
  request: {
    method: string;
    path: string;
    query: RawPair[];
    headers: Record<string, string>;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    body?: string;
    bodyBase64?: string;
    latency?: RecordedLatency;
  };
}

/** A recording with the name it is known by: its file, relative to the recording folder (`meta-cp/0a1b2c3d4e5f-000.json`). */
export interface NamedRecording {
  name: string;
  recording: Recording;
}

/** One problem of a recording file: the file, the JSON path in it (`''` for the whole file) and the rule. */
export interface RecordingProblem {
  file: string;
  path: string;
  message: string;
}

/** A `JSON.stringify` replacer that sorts the keys of every object (array-index keys come first anyway, as objects keep them). */
const sortKeys = (_key: string, value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
    : value;

/** An array of plain values (strings, numbers, booleans, null) as `JSON.stringify` indents it. */
const PLAIN_ARRAY = /\[\n\s*(?:(?:"(?:[^"\\]|\\.)*"|[-\w.+]+),\n\s*)*(?:"(?:[^"\\]|\\.)*"|[-\w.+]+)\n\s*\]/g;

/**
 * The text of a file of ours that people read and diff (a recording, a bundle): 2-space indent,
 * arrays of plain values (a query pair) on one line, a trailing newline; with `sorted`, keys sorted
 * at every level (else in the value's own order).
 */
export function fileJson(value: unknown, sorted = true): string {
  const text = JSON.stringify(value, sorted ? sortKeys : undefined, 2);
  // JSON text holds no newline inside a string: every one found here is indentation.
  return `${text.replace(PLAIN_ARRAY, (array) => array.replace(/,\n\s*/g, ', ').replace(/\n\s*/g, ''))}\n`;
}

/**
 * The text of a recording file: keys sorted at every level, 2-space indent, arrays of plain values
 * (a query pair) on one line, a trailing newline (see {@link fileJson}). Deterministic, so recordings diff well in git.
 */
export function formatRecording(recording: Recording): string {
  return fileJson(recording);
}
