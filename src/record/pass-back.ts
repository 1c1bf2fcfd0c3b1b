/**
 * Passing the upstream's answer back to the client, and hearing when the client has all of it.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { deviceHeaders } from '../routes/answer-headers.js';
import type { Plan } from '../routes/request.js';
import type { UpstreamAnswer } from './ask-upstream.js';
import { passedBackHeaders } from './forward.js';

/** What {@link passBack} sent: the headers, whether the client was gone first (nothing sent), and when (`process.hrtime.bigint()`). */
export interface PassedBack {
  headers: Record<string, string | string[]>;
  gone: boolean;
  at: bigint;
}

/**
 * Sends the upstream's answer as it came, through the routes' one response step (`plan`, with
 * `match` when the answer says what became of the recording; the upstream's own
 * content-security-policy never replaces ours). Nothing is sent to a client already gone.
 */
export function passBack(
  res: ServerResponse,
  got: UpstreamAnswer,
  plan: Extract<Plan, { kind: 'pass' }>,
  match: 'recorded' | 'passthrough' | undefined,
): PassedBack {
  const headers = deviceHeaders(passedBackHeaders(got.rawHeaders), match ? { ...plan, match } : plan);
  const gone = res.destroyed;
  if (!gone) res.writeHead(got.status, headers).end(got.body);
  return { headers, gone, at: process.hrtime.bigint() };
}

/**
 * Calls `then` once `res` has handed its whole answer to the system, or is closed, or after
 * `waitMs` milliseconds at most: until then its socket holds the body it still has to send (a slow
 * reader), so the bytes stay counted; a client that reads nothing no longer holds them counted for
 * ever (two of them holding 5 MiB each would hold every later exchange of an 8 MiB budget back).
 */
export function whenSent(res: ServerResponse, then: () => void, waitMs: number): void {
  if (res.writableFinished || res.destroyed) return then();
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(once, waitMs);
  timer.unref();
  res.once('finish', once);
  res.once('close', once);
}
