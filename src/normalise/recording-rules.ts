/**
 * The rules of a recording beyond its schema's shape, shared by the schema (`recording-schema.ts`)
 * and the quick check compiled from it (`recording-check.ts`). Kept apart from the quick check so
 * that the build step compiling the schema (scripts/compile-recording-check.ts) needs no generated
 * file to run.
 * @module
 */
import { contentTypeProblem } from '../contract/content-type.js';
import { API_PREFIX } from '../contract/core.js';
import { BODILESS_STATUSES, FRAMING_HEADERS, headerProblem } from '../contract/http-wire.js';
import { formatJsonPath } from '../errors.js';
import { fromBase64 } from './body.js';
import type { Recording, RecordingProblem } from './recording.js';

/** What checking one recording file's value gives: the recording, or every problem found. */
export type RecordingParse = { ok: true; recording: Recording } | { ok: false; problems: RecordingProblem[] };

/** Checks one parsed recording file value; `file` is how problems name it. */
export type RecordingParser = (value: unknown, file: string) => RecordingParse;

/**
 * The problems of the headers of one side of a recording, each naming its field
 * (`response.headers["x-echo"]`) in the words of the stub schema: a name that is no HTTP token, a
 * value the wire cannot carry (`headerProblem`: CR, LF, NUL, above U+00FF; replay would fail to send
 * it, drift to ask with it), a framing header (`FRAMING_HEADERS`: replay frames the body itself, and
 * with both, clients refuse the answer).
 */
function headerProblems(recording: Recording, side: 'request' | 'response', file: string): RecordingProblem[] {
  const problems: RecordingProblem[] = [];
  for (const [name, value] of Object.entries(recording[side].headers)) {
    const path = formatJsonPath([side, 'headers', name]);
    const problem = headerProblem(name, value);
    if (problem) problems.push({ file, path, message: problem });
    else if (FRAMING_HEADERS.has(name.toLowerCase()))
      problems.push({
        file,
        path,
        message: `"${name}" is not stored in a recording: mockvideo frames the body itself; remove it`,
      });
  }
  return problems;
}

/**
 * The problems of a recorded status a device cannot be answered with: a 1xx is an interim answer
 * (the device would wait for the final one), a 204, 205 or 304 carries no body (`BODILESS_STATUSES`).
 */
function statusProblems(response: Recording['response'], file: string): RecordingProblem[] {
  const { status } = response;
  if (status < 200)
    return [
      {
        file,
        path: 'response.status',
        message: `${status} is an interim answer, not the final one: the device would wait for another; record the final answer`,
      },
    ];
  const body = response.body !== undefined ? 'body' : 'bodyBase64';
  if (BODILESS_STATUSES.includes(status) && (response[body] ?? '') !== '')
    return [
      {
        file,
        path: `response.${body}`,
        message: `a ${status} answer has no body: give an empty one ("") or another status`,
      },
    ];
  return [];
}

/**
 * The rules beyond the schema's shape, for a value of the schema's shape: the path is exactly the
 * operation's (`/api/g1/<operation>`: no prefix, no `..`, no `//host`, no query, since drift sends
 * the real token to it), every header can be sent as recorded (see {@link headerProblems}), the
 * status is a final answer that carries its body (see {@link statusProblems}), the body is given exactly once (`body` or `bodyBase64`, which must decode to
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
      message: `${JSON.stringify(recording.request.path)} is not the path of operation ${recording.operation}: expected exactly "${API_PREFIX}/${recording.operation}"`,
    });
  }
  for (const side of ['request', 'response'] as const) problems.push(...headerProblems(recording, side, file));
  problems.push(...statusProblems(recording.response, file));
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
