import { planScenarioAnswer, type Answer, type PlannedAnswer, type ScenarioAnswerSource } from '../handlers/scenario-answer.js';
import { SCENARIO_HEADER, requestedScenario } from '../handlers/select-scenario.js';
import type { ServerContext } from './context.js';
import { operationRequest, originReader, type FastPath } from './fast-path-listener.js';
import { journalExchange } from './journal-middleware.js';
import { logRequest, type RequestLogEntry } from './request-log.js';

const encoded = new WeakMap<Answer, Buffer>();

/** The body of a (shared) answer as UTF-8 bytes, encoded once. */
function bytesOf(answer: Answer): Buffer {
  let bytes = encoded.get(answer);
  if (!bytes) encoded.set(answer, (bytes = Buffer.from(answer.body, 'utf8')));
  return bytes;
}

/** Options of {@link createFastPath}. */
export interface FastPathOptions {
  /** Called once per request answered, as the full host's request log is. */
  onRequest?: (entry: RequestLogEntry) => void;
}

/**
 * The serve fast path: a Node request listener step that answers GET and HEAD requests to the six
 * operations straight from the scenario (precomputed response text), without Express or msw.
 * It gives exactly what the full host gives (the MSW handlers through `@mswjs/http-middleware`):
 * the same {@link planScenarioAnswer} decides status, headers and body; the request log, the
 * journal, the contract findings and their header are the same calls; faults (delay, reset, hang…)
 * behave the same. A differential test holds the two to identical bytes.
 *
 * Returns `false`, touching nothing, for every request it leaves to the full host: other methods
 * and paths, the admin API, a request target over {@link MAX_URL_LENGTH}, one without a valid
 * `Host`, and (with `--strict-requests`) a request with findings.
 */
export function createFastPath(context: ServerContext, options: FastPathOptions = {}): FastPath {
  const source: ScenarioAnswerSource = { responder: context.responder, activeScenario: () => context.active.scenario, faults: context.faults };
  // The origin the client used, as msw's request URL has it; `undefined` when the Host header does not parse.
  const originOf = originReader();

  return (req, res) => {
    const request = operationRequest(context, req, originOf);
    if (!request) return false;
    const { method, target, origin, findings } = request;

    if (options.onRequest) logRequest(options.onRequest, req, res);
    let sent = '';
    journalExchange(context, req, res, target, findings, () => sent);
    const planned: PlannedAnswer = planScenarioAnswer(source, target.operation, {
      method,
      scenario: requestedScenario(target.path, req.headers[SCENARIO_HEADER] as string | undefined),
      query: () => new URLSearchParams(target.search),
      origin: () => origin,
    });
    const send = () => {
      const { answer } = planned;
      // `reset` and `hang`: no answer, the connection goes.
      if (!answer) return void req.socket.destroy();
      sent = answer.body;
      res.statusCode = answer.status;
      for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
      res.end(bytesOf(answer));
    };
    if (planned.delayMs > 0) {
      const timer = setTimeout(send, planned.delayMs);
      res.once('close', () => clearTimeout(timer));
    } else send();
    return true;
  };
}
