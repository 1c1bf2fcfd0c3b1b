import type { ServerResponse } from 'node:http';
import { replayResponse, unavailableResponse } from '../replay/handlers.js';
import type { IndexedRecording } from '../replay/recording-index.js';
import type { RecordedResponse } from '../replay/recording-source.js';
import type { Replayer, ReplayOutcome } from '../replay/replayer.js';
import type { ServerContext } from './context.js';
import { answerFailure, operationRequest, originReader, type FastPath } from './fast-path-listener.js';
import { journalExchange } from './journal-middleware.js';
import { logRequest, type RequestLogEntry } from './request-log.js';

/**
 * Characters the WHATWG URL parser percent-encodes in the query of an `http(s)` URL (controls, space
 * and above `~`, `"`, `'`, `<`, `>`): a query with one of them is read through `URL`, as msw reads it.
 */
const URL_ENCODES = /[^\x21-\x7e]|["'<>]/;

/**
 * A replayed answer as `@mswjs/http-middleware` writes it: `status` and `statusText` (msw's status
 * message), `headers` as `[lower-case name, value]` pairs in the order msw's `Headers` gives them
 * (sorted by name, each `set-cookie` on its own), `body` bytes (`null`: no body stream at all) and
 * `text`, the body decoded as UTF-8 as the journal keeps it (`''` without a body).
 */
export interface ReplayAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array | null;
  readonly text: string;
}

/**
 * The parts of an msw response (`Response`) as {@link ReplayAnswer}. `body` gives the bytes when the
 * caller already has them (the recording's own, never copied); otherwise the response body is read.
 */
async function answerOf(response: Response, body?: Uint8Array): Promise<ReplayAnswer> {
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  const bytes = response.body === null ? null : (body ?? new Uint8Array(await response.arrayBuffer()));
  const text = bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : '';
  return { status: response.status, statusText: response.statusText, headers, body: bytes, text };
}

/**
 * Writes `answer` to `res` with the calls `@mswjs/http-middleware` makes: status, status message,
 * `appendHeader` per header, then the body as one chunk and `end()` (chunked transfer encoding), or
 * `end()` alone for an empty or absent body (`content-length: 0`).
 */
function writeAnswer(res: ServerResponse, answer: ReplayAnswer): void {
  res.statusCode = answer.status;
  res.statusMessage = answer.statusText;
  for (const [name, value] of answer.headers) res.appendHeader(name, value);
  if (answer.body && answer.body.byteLength > 0) res.write(answer.body);
  res.end();
}

/** Options of {@link createReplayFastPath}. */
export interface ReplayFastPathOptions {
  /** The replay engine the full host's MSW handlers use too (one set of sequences and one unused list). */
  replayer: Replayer;
  /**
   * Answer exact matches only, as the replay handlers do first when a fallback scenario or
   * `--record-missing` decides every other request. Default false: in `nearest` mode a nearest match
   * is answered here too.
   */
  exactOnly?: boolean;
  /** Called once per request answered, as the full host's request log is. */
  onRequest?: (entry: RequestLogEntry) => void;
}

/**
 * The replay fast path: a Node request-listener step that answers GET and HEAD requests to the six
 * operations that a recording answers (an exact match; in `nearest` mode without `exactOnly`, a
 * nearest match too) without Express or msw. It gives exactly what the full host gives through
 * `createReplayHandlers` and `@mswjs/http-middleware`: the answer is made by the same
 * `replayResponse` (or, for a recording whose file can no longer be read, the same 500 of
 * `unavailableResponse`) and written with the same calls; the request log, the journal and the
 * findings header are the same calls as the host's. A differential test holds the two to identical
 * bytes (test/perf/replay-differential.test.ts).
 *
 * Per request it asks the replayer (`Replayer.served`: sequences and the unused list count as in the
 * host) and the recording's response (`Replayer.response`, read behind the source's bounded cache);
 * the encoded answer of an exact match is kept per response object (a `WeakMap`), so it lives only as
 * long as the source's cache keeps that response: memory stays bounded by the cache however many
 * recordings there are, and a response read again from its file is encoded again.
 *
 * Returns `false`, touching nothing (no sequence or unused-list change), for every request it leaves
 * to the full host: misses (their near-miss 404), fallback answers, `--record-missing` fetches, other
 * methods and paths, the admin API, a request target over `MAX_URL_LENGTH` or with `#`, one
 * without a valid `Host`, and (with `--strict-requests`) a request with findings. Returns `true` when
 * it took the request: the answer follows asynchronously; a fault of its own while answering gives
 * that client a JSON 500 (or a closed socket when headers were already sent). Never throws for a
 * request it declined; may throw (before answering) only on a fault of its own.
 */
export function createReplayFastPath(context: ServerContext, options: ReplayFastPathOptions): FastPath {
  const { replayer, onRequest } = options;
  const mode = options.exactOnly ? 'strict' : replayer.match;
  // The encoded answer of an exact match, per response object of the recording source (and its name, to be sure).
  const exactAnswers = new WeakMap<RecordedResponse, { name: string; answer: ReplayAnswer }>();
  // Whether msw could build the request URL from the Host header (else the full host answers, 400).
  const originOf = originReader();

  const answerFor = async (outcome: Extract<ReplayOutcome, { kind: 'exact' | 'nearest' }>): Promise<ReplayAnswer> => {
    const entry: IndexedRecording = outcome.entry;
    let response: RecordedResponse;
    try {
      response = await replayer.response(entry);
    } catch (error) {
      return answerOf(unavailableResponse(entry, error as Error));
    }
    if (outcome.kind === 'nearest') return answerOf(replayResponse(entry, response, 'nearest', outcome.differences), response.body);
    const cached = exactAnswers.get(response);
    if (cached && cached.name === entry.name) return cached.answer;
    const answer = await answerOf(replayResponse(entry, response, 'exact'), response.body);
    exactAnswers.set(response, { name: entry.name, answer });
    return answer;
  };

  return (req, res) => {
    const request = operationRequest(context, req, originOf);
    if (!request) return false;
    const { method, target, findings } = request;
    // The query as msw's request URL has it.
    const search = URL_ENCODES.test(target.search) ? new URL(req.url!, 'http://localhost').search : target.search;
    const outcome = replayer.served(method, target.path, search, mode);
    if (!outcome) return false;

    if (onRequest) logRequest(onRequest, req, res);
    let sent = '';
    journalExchange(context, req, res, target, findings, () => sent);
    // A fault of mockvideo's own: this client gets a 500 (or a closed socket), the others go on.
    const fail = (error: unknown) => answerFailure(req, res, error);
    answerFor(outcome).then((answer) => {
      if (res.destroyed) return;
      sent = answer.text;
      try {
        writeAnswer(res, answer);
      } catch (error) {
        fail(error as Error);
      }
    }, fail);
    return true;
  };
}
