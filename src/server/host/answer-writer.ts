import type { IncomingMessage, ServerResponse } from 'node:http';
import { deviceHeaders, ourFault, type Answer, type Plan } from '../../routes/index.js';
import type { SentAnswer } from './journal-exchange.js';

/** What was sent when no answer was (a reset, a hang, a client gone). */
export const NOT_SENT: SentAnswer = { status: 0, headers: {}, body: '' };

/** Sends `answer` with `headers` and its `content-length` (none for HEAD); returns what was sent. */
function send(req: IncomingMessage, res: ServerResponse, answer: Answer, headers: Record<string, string>): SentAnswer {
  const { status, body } = answer;
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(status, headers);
  // node:http sends a string body in one write with the header block.
  res.end(req.method === 'HEAD' ? undefined : body);
  return { status, headers, body };
}

/**
 * Carries out a planned answer or drop, once its delay is over: the answer with every
 * device-facing header (`deviceHeaders`), or for `drop` a closed connection. Returns what was
 * sent ({@link NOT_SENT} for a drop, or when the client is gone).
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
  return send(req, res, plan.answer, deviceHeaders(plan.answer.headers, plan));
}

/**
 * Answers one request that mockvideo itself failed to answer: the routes' 500 (`ourFault`:
 * `{ "error": "mockvideo failed to answer: <message>" }`), or, when its headers are already sent,
 * a closed connection. Other clients are not affected.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) req.socket.destroy();
  else if (!res.destroyed) {
    const answer = ourFault((error as Error)?.message);
    send(req, res, answer, deviceHeaders(answer.headers));
  }
}
