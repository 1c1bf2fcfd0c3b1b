/**
 * Checking a recording file's value without zod: {@link parseRecordingQuickly} accepts exactly the
 * well-formed recordings (what `recordingSchema` accepts, by a validator compiled from it at build
 * time, then the rules of {@link recordingRules}), so `replay` of a folder of good recordings never
 * loads zod. A value it refuses is checked again
 * with the schema (`parseRecording` in `recording-schema.ts`), whose messages name each problem.
 * @module
 */
import { contentTypeProblem } from '../contract/content-type.js';
import { API_PREFIX } from '../contract/core.js';
import type { Recording, RecordingProblem } from './recording.js';
import validateShape from './recording-shape.generated.js';

/** What checking one recording file's value gives: the recording, or every problem found. */
export type RecordingParse = { ok: true; recording: Recording } | { ok: false; problems: RecordingProblem[] };

/** Checks one parsed recording file value; `file` is how problems name it. */
export type RecordingParser = (value: unknown, file: string) => RecordingParse;

/** The message of {@link parseRecordingQuickly}'s one problem: the schema says what is wrong. */
export const NOT_WELL_FORMED = 'not a well-formed recording (check it with the recording schema)';

/**
 * The rules beyond the schema's shape, for a value of the schema's shape: the path is exactly the
 * operation's (`/api/g1/<operation>`: no prefix, no `..`, no `//host`, no query, since drift sends
 * the real token to it), the body is given exactly once (`body` or `bodyBase64`), and the
 * response's `content-type` is JSON (or text/plain; see `contentTypeProblem`): never a type a
 * browser opens as a page.
 */
export function recordingRules(recording: Recording, file: string): RecordingProblem[] {
  const problems: RecordingProblem[] = [];
  if (recording.request.path !== `${API_PREFIX}/${recording.operation}`) {
    problems.push({
      file,
      path: 'request.path',
      message: `"${recording.request.path}" is not the path of operation ${recording.operation}: expected exactly "${API_PREFIX}/${recording.operation}"`,
    });
  }
  const headerNames = Object.keys(recording.response.headers).map((name) => name.toLowerCase());
  if (headerNames.includes('transfer-encoding')) {
    // Replay frames the body itself: a recorded framing header would be sent beside its own (Node clients refuse both).
    problems.push({
      file,
      path: 'response.headers',
      message: `"transfer-encoding" is not stored in a recording (replay frames the body itself${headerNames.includes('content-length') ? '; with "content-length" too, clients refuse the answer' : ''}); remove it`,
    });
  }
  if ((recording.response.body === undefined) === (recording.response.bodyBase64 === undefined)) {
    problems.push({ file, path: 'response', message: 'expected exactly one of "body" (text) and "bodyBase64"' });
  }
  const contentType = contentTypeProblem(recording.response.headers);
  if (contentType) problems.push({ file, path: 'response.headers.content-type', message: contentType });
  return problems;
}

/**
 * Checks a parsed recording file value without zod. A well-formed recording comes back as the
 * schema would give it; anything else as one problem ({@link NOT_WELL_FORMED}) for the whole file:
 * the caller checks such a value again with the schema for the exact problems.
 */
export function parseRecordingQuickly(value: unknown, file: string): RecordingParse {
  if (!isRecordingShape(value)) return { ok: false, problems: [{ file, path: '', message: NOT_WELL_FORMED }] };
  const problems = recordingRules(value, file);
  return problems.length ? { ok: false, problems } : { ok: true, recording: value };
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
