/**
 * Checking a recording file's value without zod: {@link parseRecordingQuickly} accepts exactly the
 * well-formed recordings (what `recordingSchema` accepts, by a validator compiled from it at build
 * time, then the rules of {@link recordingRules}), so `replay` of a folder of good recordings never
 * loads zod. A value it refuses is checked again
 * with the schema (`parseRecording` in `recording-schema.ts`), whose messages name each problem.
 * @module
 */
import type { Recording } from './recording.js';
import { recordingRules, type RecordingParse } from './recording-rules.js';
import validateShape from './recording-shape.generated.js';

/** The message of {@link parseRecordingQuickly}'s one problem: the schema says what is wrong. */
const NOT_WELL_FORMED = 'not a well-formed recording (check it with the recording schema)';

/**
 * Checks a parsed recording file value without zod. A well-formed recording comes back as the
 * schema would give it; anything else as one problem ({@link NOT_WELL_FORMED}) for the whole file:
 * the caller checks such a value again with the schema for the exact problems.
 */
export function parseRecordingQuickly(value: unknown, file: string): RecordingParse {
  if (!isRecordingShape(value)) return { ok: false, problems: [{ file, path: '', message: NOT_WELL_FORMED }] };
  return recordingRules(value, file);
}

/**
 * True when `value` has exactly the shape `recordingSchema` accepts: its JSON Schema, compiled at
 * build time (`recording-shape.generated.ts`), and the two rules that JSON Schema cannot state
 * (a date `Date.parse` reads, the last byte not before the headers).
 */
function isRecordingShape(value: unknown): value is Recording {
  if (!validateShape(value)) return false;
  const { recordedAt, response } = value as Recording;
  return (
    !Number.isNaN(Date.parse(recordedAt)) &&
    (response.latency === undefined || response.latency.lastByteMs >= response.latency.headersMs)
  );
}
