/**
 * The rules of a recording beyond its schema's shape, shared by the schema (`recording-schema.ts`)
 * and the quick check compiled from it (`recording-check.ts`). Kept apart from the quick check so
 * that the build step compiling the schema (scripts/compile-recording-check.ts) needs no generated
 * file to run.
 * @module
 */
import { contentTypeProblem } from '../contract/content-type.js';
import { API_PREFIX } from '../contract/core.js';
import { fromBase64 } from './body.js';
import type { Recording, RecordingProblem } from './recording.js';

/** What checking one recording file's value gives: the recording, or every problem found. */
export type RecordingParse = { ok: true; recording: Recording } | { ok: false; problems: RecordingProblem[] };

/** Checks one parsed recording file value; `file` is how problems name it. */
export type RecordingParser = (value: unknown, file: string) => RecordingParse;

/**
 * The rules beyond the schema's shape, for a value of the schema's shape: the path is exactly the
 * operation's (`/api/g1/<operation>`: no prefix, no `..`, no `//host`, no query, since drift sends
 * the real token to it), the body is given exactly once (`body` or `bodyBase64`, which must decode to
 * whole bytes as replay reads it: `YR` or a lone last character would only fail when sent), and the
 * response's `content-type` is JSON (or text/plain; see `contentTypeProblem`): never a type a
 * browser opens as a page. Gives the recording when it keeps them all, else every problem.
 */
export function recordingRules(recording: Recording, file: string): RecordingParse {
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
  if (recording.response.bodyBase64 !== undefined && !decodes(recording.response.bodyBase64)) {
    problems.push({
      file,
      path: 'response.bodyBase64',
      message: 'not base64 of whole bytes (unused bits set, or a lone last character)',
    });
  }
  const contentType = contentTypeProblem(recording.response.headers);
  if (contentType) problems.push({ file, path: 'response.headers.content-type', message: contentType });
  return problems.length ? { ok: false, problems } : { ok: true, recording };
}

/** True when `fromBase64` reads `text` (it throws on what is not base64 of whole bytes). */
function decodes(text: string): boolean {
  try {
    fromBase64(text);
    return true;
  } catch {
    return false;
  }
}
