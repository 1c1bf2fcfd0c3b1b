/**
 * The admin app's error answers: the routes' one `errorBody` shape, sent through Express, and the
 * answer to an error a call threw. Nothing here writes an error body of its own.
 * @module
 */
import type { Response } from 'express';
import { isAnswerCode, type AnswerCode } from '../../error-codes.js';
import { MockvideoError } from '../../errors.js';
import { errorBody, type Answer } from '../../routes/index.js';

/**
 * Sends the error answer `{ error, code, ...details }` with the status of `code` (see `errorBody`).
 * @example sendError(res, 'MV_NOT_FUZZING', 'This server is not fuzzing.') // 404
 */
export function sendError(res: Response, code: AnswerCode, error: string, details?: Record<string, unknown>): void {
  sendAnswer(res, errorBody(code, error, details));
}

/** Sends a made answer (status, headers, body) as it is. */
export function sendAnswer(res: Response, answer: Answer): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

/**
 * The answer to `error`, thrown by a call or by Express while reading the request, when it is the
 * request's fault: a `MockvideoError` (a value the call cannot take) answers with its own code when
 * that has a status, else `MV_USAGE` (400); an http-errors 4xx (a body that does not parse, a path
 * that does not decode) is `MV_BODY_TOO_LARGE` (413), `MV_NOT_JSON` (415) or
 * `MV_REQUEST_UNREADABLE` (400), its message after `reading` (`Cannot read this request`).
 * `undefined` for anything else: a fault of ours, which the caller answers 500.
 */
export function clientErrorAnswer(error: unknown, reading: string): Answer | undefined {
  if (error instanceof MockvideoError) return errorBody(isAnswerCode(error.code) ? error.code : 'MV_USAGE', error.text);
  const status = (error as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const message = (error as Error).message;
  const text = message.startsWith(reading) ? message : `${reading}: ${message}`;
  return errorBody(
    status === 413 ? 'MV_BODY_TOO_LARGE' : status === 415 ? 'MV_NOT_JSON' : 'MV_REQUEST_UNREADABLE',
    text,
  );
}
