import type { IncomingMessage, ServerResponse } from 'node:http';
import { deviceHeaders, failedPlan, type Plan, type Route } from '../../routes/index.js';
import type { SentAnswer } from './journal-exchange.js';

/** What was sent when no answer was (a reset, a hang, a client gone). */
export const NOT_SENT: SentAnswer = { status: 0, headers: {}, body: '' };

/** Statuses whose answers have no body, so no `content-length` either (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 304]);

/**
 * Carries out a planned answer or drop, once its delay is over: the answer with the headers of the
 * one response step (`deviceHeaders`) and its `content-length` (no body for HEAD, nor for 204 and
 * 304), or for `drop` a closed connection. A status HTTP cannot send as an answer (below 200 or
 * above 599) is a fault of ours: the routes' 500. Returns what was sent ({@link NOT_SENT} for a
 * drop, or when the client is gone).
 */
export function writePlan(
  req: IncomingMessage,
  res: ServerResponse,
  plan: Extract<Plan, { kind: 'answer' | 'drop' }>,
): SentAnswer {
  if (res.destroyed) return NOT_SENT;
  if (plan.kind === 'drop') {
    req.socket.destroy();
    return NOT_SENT;
  }
  const { status, body } = plan.answer;
  if (!(status >= 200 && status <= 599))
    return writePlan(
      req,
      res,
      failedPlan(plan.route, new Error(`an answer with HTTP status ${status}, which is no final status`)),
    );
  const headers = deviceHeaders(plan.answer.headers, plan);
  const bodyless = NO_BODY.has(status);
  // Text goes as UTF-8 bytes: node:http writes a string body in one string with the header block,
  // in the body's encoding, which would send a Latin-1 header value (`café`) as UTF-8.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (!bodyless) headers['content-length'] = String(bytes.byteLength);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' || bodyless ? undefined : bytes);
  return { status, headers, body: bodyless ? '' : body };
}

/**
 * Answers one request (to `route`) that mockvideo itself failed to answer: the routes' `failedPlan`
 * (a 500 `{ "error": "mockvideo failed to answer: <message>" }`), or, when its headers are already
 * sent, a closed connection. Other clients are not affected.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, route: Route, error: unknown): void {
  if (res.headersSent) req.socket.destroy();
  else writePlan(req, res, failedPlan(route, error));
}
