import type { IncomingMessage, ServerResponse } from 'node:http';
import { deviceHeaders, failedPlan, routeOf, type Plan } from '../../routes/index.js';
import type { SentAnswer } from './journal-exchange.js';

/** What was sent when no answer was (a reset, a hang, a client gone). */
export const NOT_SENT: SentAnswer = { status: 0, headers: {}, body: '' };

/**
 * Carries out a planned answer or drop, once its delay is over: the answer with every
 * device-facing header (`deviceHeaders`) and its `content-length` (no body for HEAD), or for `drop`
 * a closed connection. Returns what was sent ({@link NOT_SENT} for a drop, or when the client is gone).
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
  const headers = deviceHeaders(plan.answer.headers, plan);
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(status, headers);
  // node:http sends a string body in one write with the header block.
  res.end(req.method === 'HEAD' ? undefined : body);
  return { status, headers, body };
}

/**
 * Answers one request that mockvideo itself failed to answer: the routes' `failedPlan` (a 500
 * `{ "error": "mockvideo failed to answer: <message>" }`), or, when its headers are already sent,
 * a closed connection. Other clients are not affected.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) req.socket.destroy();
  else writePlan(req, res, failedPlan(routeOf((req.url ?? '/').split('?')[0]!), error));
}
