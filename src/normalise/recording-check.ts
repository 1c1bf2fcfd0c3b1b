/**
 * Checking a recording file's value without zod: {@link parseRecordingQuickly} accepts exactly the
 * well-formed recordings (what `recordingSchema` accepts, then the rules of {@link recordingRules}),
 * so `replay` of a folder of good recordings never loads zod. A value it refuses is checked again
 * with the schema (`parseRecording` in `recording-schema.ts`), whose messages name each problem.
 * @module
 */
import { contentTypeProblem } from '../contract/content-type.js';
import { API_PREFIX, OPERATION_NAMES } from '../contract/core.js';
import { MAX_LATENCY_MS } from '../latency/latency.js';
import type { Recording, RecordingProblem } from './recording.js';

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

const OPERATIONS: ReadonlySet<unknown> = new Set(OPERATION_NAMES);
const RECORDING_KEYS = new Set(['operation', 'matchKey', 'recordedAt', 'request', 'response']);
const REQUEST_KEYS = new Set(['method', 'path', 'query', 'headers']);
const RESPONSE_KEYS = new Set(['status', 'headers', 'body', 'bodyBase64', 'latency']);
const LATENCY_KEYS = new Set(['headersMs', 'lastByteMs']);
const METHOD = /^[A-Z]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A plain object (not null, not an array) whose keys are all in `keys`. */
function isObjectWith(value: unknown, keys: ReadonlySet<string>): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}

/** A plain object of string values. */
function isHeaderMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}

/** A milliseconds figure of a recorded latency. */
function isLatencyMs(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX_LATENCY_MS;
}

/** True when `value` has exactly the shape `recordingSchema` accepts (strict objects, every rule); no stricter rule, no looser one. */
function isRecordingShape(value: unknown): value is Recording {
  if (!isObjectWith(value, RECORDING_KEYS)) return false;
  const { operation, matchKey, recordedAt, request, response } = value;
  if (
    !OPERATIONS.has(operation) ||
    typeof matchKey !== 'string' ||
    typeof recordedAt !== 'string' ||
    Number.isNaN(Date.parse(recordedAt))
  )
    return false;
  if (!isObjectWith(request, REQUEST_KEYS)) return false;
  if (
    typeof request.method !== 'string' ||
    !METHOD.test(request.method) ||
    typeof request.path !== 'string' ||
    !request.path.startsWith('/')
  )
    return false;
  if (!Array.isArray(request.query) || !isHeaderMap(request.headers)) return false;
  for (const pair of request.query as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string')
      return false;
  }
  if (!isObjectWith(response, RESPONSE_KEYS)) return false;
  const { status, headers, body, bodyBase64, latency } = response;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599 || !isHeaderMap(headers))
    return false;
  if (body !== undefined && typeof body !== 'string') return false;
  if (bodyBase64 !== undefined && (typeof bodyBase64 !== 'string' || !BASE64.test(bodyBase64))) return false;
  if (latency !== undefined) {
    if (
      !isObjectWith(latency, LATENCY_KEYS) ||
      !isLatencyMs(latency.headersMs) ||
      !isLatencyMs(latency.lastByteMs) ||
      latency.lastByteMs < latency.headersMs
    )
      return false;
  }
  return true;
}
