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

/** True for a key that JavaScript objects order first, numerically (an array index: `0` to 2^32 - 2). */
function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;
}

/**
 * The keys of an object in the order a copy made with sorted keys would list them: sorted (by UTF-16
 * code units), except that array-index keys come first in numeric order, as objects keep them.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value).sort();
  if (!keys.some(isIndexKey)) return keys;
  return [...keys.filter(isIndexKey).sort((a, b) => Number(a) - Number(b)), ...keys.filter((key) => !isIndexKey(key))];
}

/** The file text of a value, keys sorted at every level, in one pass (no sorted copy is made). */
function format(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object'))
      return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((v) => `${inner}${format(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const keys = sortedKeys(value);
    if (keys.length === 0) return '{}';
    const inner = `${indent}  `;
    let text = '{\n';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      text += `${i ? ',\n' : ''}${inner}${JSON.stringify(key)}: ${format((value as Record<string, unknown>)[key], inner)}`;
    }
    return `${text}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * The text of a recording file: keys sorted at every level, 2-space indent, arrays of plain values
 * (a query pair) on one line, a trailing newline. Deterministic, so recordings diff well in git.
 */
export function formatRecording(recording: Recording): string {
  return `${format(recording, '')}\n`;
}
