import { getResponse, http, HttpResponse, type HttpHandler } from 'msw';
import { API_PREFIX, OPERATION_NAMES, operationOfPath } from '../contract/core.js';
import { errorBody, methodNotAllowed, unknownOperation } from '../handlers/error-responses.js';
import { REDACTED, type NamedRecording } from '../normalise/index.js';
import { formatNearMissReport, type Difference, type NearMissReport } from './near-miss.js';
import { DIFFERENCES_HEADER, MATCH_HEADER, RECORDING_HEADER, Replayer, type MatchKind, type ReplayerOptions } from './replayer.js';
import { STEP_HEADER } from '../state/client-state.js';
import { sequenceStep, type IndexedRecording } from './recording-index.js';
import type { RecordedResponse } from './recording-source.js';

/** Options of {@link createReplayHandlers}. */
export interface ReplayHandlerOptions extends ReplayerOptions {
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** Use this replayer (shares sequences and the unused list); default: a new one over `recordings`. */
  replayer?: Replayer;
  /** Handlers that answer what the recordings do not (e.g. a scenario's); their answers carry `x-mockvideo-match: fallback`. */
  fallback?: readonly HttpHandler[];
  /** Leave every request without an exact recording unanswered, so the host can fetch and record it. */
  recordMissing?: boolean;
  /** Called with the report of each request no recording answers. */
  onMiss?: (report: NearMissReport) => void;
}

/**
 * The stored answer of a recording, byte for byte, with how it was matched: `response` is what
 * `replayer.response(entry)` gave.
 */
export function replayResponse(entry: IndexedRecording, response: RecordedResponse, kind: MatchKind, differences: readonly Difference[] = []): HttpResponse<BodyInit> {
  // A redacted credential header (`set-cookie: <REDACTED>`) is not sent: it carries nothing but would break cookie parsing.
  const headers = new Headers(Object.entries(response.headers).filter(([, value]) => value !== REDACTED));
  headers.set(MATCH_HEADER, kind);
  headers.set(RECORDING_HEADER, entry.name);
  if (kind === 'nearest') headers.set(DIFFERENCES_HEADER, differences.map((d) => d.parameter).join(', ') || '(none)');
  const step = sequenceStep(entry);
  if (step !== undefined) headers.set(STEP_HEADER, step);
  // Never HttpResponse.json(): re-serialising would turn the service's \u0026 escapes into &.
  return new HttpResponse(response.body as BodyInit, { status: response.status, headers });
}

/**
 * Reads the response of `entry` and answers with it; when it cannot be read any more (its file was
 * removed or broken after replay started), a 500 whose JSON names the recording and the cause.
 */
async function serveRecording(replayer: Replayer, entry: IndexedRecording, kind: MatchKind, differences: readonly Difference[] = []): Promise<HttpResponse<BodyInit>> {
  let response: RecordedResponse;
  try {
    response = await replayer.response(entry);
  } catch (error) {
    return unavailableResponse(entry, error as Error);
  }
  return replayResponse(entry, response, kind, differences);
}

/**
 * The 500 answer for a recording whose response cannot be read any more (`error`, e.g. a
 * `RecordingUnavailableError`): JSON `{ error, recording }`, with `x-mockvideo-recording` naming it.
 */
export function unavailableResponse(entry: IndexedRecording, error: Error): HttpResponse<BodyInit> {
  const answer = errorBody(500, error.message, { recording: entry.name });
  return new HttpResponse(answer.body, { status: 500, headers: { ...answer.headers, [RECORDING_HEADER]: entry.name } });
}

/**
 * MSW handlers that replay recordings (parsed objects, never paths): one per operation, plus one
 * that answers other paths under `/api/g1` with a 404 naming the operations.
 *
 * A request is answered by the recording of its exact match key (`x-mockvideo-match: exact`); in
 * `nearest` mode (the default) else by the closest recording of the same operation (`nearest`);
 * else by the `fallback` handlers (`fallback`); else with a 404 near-miss report: JSON, or the
 * side-by-side table when the request accepts `text/plain`.
 *
 * @example
 * const server = setupServer(...createReplayHandlers(recordings, { match: 'strict' }));
 * @see replayer.ts for the matching rules; near-miss.ts for the report.
 */
export function createReplayHandlers(recordings: readonly NamedRecording[], options: ReplayHandlerOptions = {}): HttpHandler[] {
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const replayer = options.replayer ?? new Replayer(recordings, options);
  const fallback = options.fallback ? [...options.fallback] : undefined;
  const handler = (operation: string) =>
    http.all(`${base}${API_PREFIX}/${operation}`, async ({ request }) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        const answer = methodNotAllowed(request.method, operation);
        return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
      }
      const url = new URL(request.url);
      const mode = options.recordMissing || fallback ? 'strict' : replayer.match;
      let outcome = replayer.find(request.method, url.pathname, url.search, mode);
      if (outcome.kind === 'exact') return serveRecording(replayer, outcome.entry, 'exact');
      if (options.recordMissing) return undefined;
      if (fallback) {
        if (replayer.match === 'nearest') {
          outcome = replayer.find(request.method, url.pathname, url.search, 'nearest');
          if (outcome.kind === 'nearest') return serveRecording(replayer, outcome.entry, 'nearest', outcome.differences);
        }
        const answered = await getResponse(fallback, request);
        if (answered) {
          const headers = new Headers(answered.headers);
          headers.set(MATCH_HEADER, 'fallback');
          return new HttpResponse(await answered.arrayBuffer(), { status: answered.status, headers });
        }
      }
      if (outcome.kind === 'nearest') return serveRecording(replayer, outcome.entry, 'nearest', outcome.differences);
      if (outcome.kind !== 'miss') return undefined;
      options.onMiss?.(outcome.report);
      if (/^text\/plain/.test(request.headers.get('accept') ?? '')) {
        return new HttpResponse(`${formatNearMissReport(outcome.report)}\n`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      }
      const { error, ...details } = outcome.report;
      const answer = errorBody(404, error, details);
      return new HttpResponse(answer.body, { status: 404, headers: answer.headers });
    });
  return [
    ...OPERATION_NAMES.map(handler),
    http.all(`${base}${API_PREFIX}/*`, ({ request }) => {
      const { pathname } = new URL(request.url);
      if (operationOfPath(pathname)) return undefined; // an operation left unanswered on purpose (--record-missing)
      const answer = unknownOperation(pathname);
      return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
    }),
  ];
}
