import { REDACTED } from '../normalise/policy.js';
import { DIFFERENCES_HEADER, MATCH_HEADER, RECORDING_HEADER, type MatchKind } from '../replay/headers.js';
import { formatNearMissReport, type Difference, type NearMissReport } from '../replay/near-miss.js';
import { latencyDelayMs, type RecordedLatency } from '../latency/latency.js';
import { sequenceStep, type IndexedRecording } from '../replay/recording-index.js';
import { STEP_HEADER } from '../state/client-state.js';
import type { RecordedResponse } from '../replay/recording-source.js';
import type { Replayer } from '../replay/replayer.js';
import { errorBody } from './errors.js';
import { headerValue, type Answer, type RequestHeaders } from './request.js';

/**
 * The stored answer of a recording, byte for byte, with how it was matched (`x-mockvideo-match`,
 * `x-mockvideo-recording`, for `nearest` `x-mockvideo-differences`, and for one of several
 * recordings of a key `x-mockvideo-step`, e.g. `2/3`: `step`, see `sequenceStep`). A redacted credential
 * header (`set-cookie: <REDACTED>`) is not sent: it carries nothing but would break cookie parsing.
 */
function replayAnswer(
  entry: IndexedRecording,
  response: RecordedResponse,
  kind: MatchKind,
  step: string | undefined,
  differences: readonly Difference[] = [],
): Answer {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(response.headers).sort()) {
    const value = response.headers[name]!;
    if (value !== REDACTED) headers[name.toLowerCase()] = value;
  }
  headers[MATCH_HEADER] = kind;
  headers[RECORDING_HEADER] = entry.name;
  if (kind === 'nearest') headers[DIFFERENCES_HEADER] = differences.map((d) => d.parameter).join(', ') || '(none)';
  if (step !== undefined) headers[STEP_HEADER] = step;
  return { status: response.status, headers, body: response.body };
}

/**
 * The 500 answer for a recording whose response cannot be read any more (`error`, e.g. a
 * `RecordingUnavailableError`): JSON `{ error, recording }`, with `x-mockvideo-recording` naming it.
 */
function unavailableAnswer(entry: IndexedRecording, error: Error): Answer {
  const answer = errorBody(500, error.message, { recording: entry.name });
  return { ...answer, headers: { ...answer.headers, [RECORDING_HEADER]: entry.name } };
}

/** The 404 of a request no recording answers: the near-miss report as JSON, or its side-by-side table when the request accepts `text/plain`. */
export function missAnswer(report: NearMissReport, headers: RequestHeaders): Answer {
  if (/^text\/plain/.test(headerValue(headers, 'accept') ?? '')) {
    return {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: `${formatNearMissReport(report)}\n`,
    };
  }
  const { error, ...details } = report;
  return errorBody(404, error, details);
}

/**
 * The answers of recordings, made once per response object of the recording source for an exact
 * match (so an exact answer lives only as long as the source's bounded cache keeps its response).
 */
export class RecordingAnswers {
  readonly #exact = new WeakMap<RecordedResponse, { name: string; answer: Answer }>();
  /** The recorded latency of each answer made from a response that has one. */
  readonly #latencies = new WeakMap<Answer, RecordedLatency>();
  readonly #replayer: Replayer;

  constructor(replayer: Replayer) {
    this.#replayer = replayer;
  }

  /** The answer of `entry` (read from its source when needed), or the 500 of {@link unavailableAnswer}. */
  answer(
    entry: IndexedRecording,
    kind: 'exact' | 'nearest',
    differences: readonly Difference[] = [],
  ): Answer | Promise<Answer> {
    let response: RecordedResponse | Promise<RecordedResponse>;
    try {
      response = this.#replayer.response(entry);
    } catch (error) {
      return unavailableAnswer(entry, error as Error);
    }
    if (response instanceof Promise)
      return response.then(
        (read) => this.#of(entry, read, kind, differences),
        (error: Error) => unavailableAnswer(entry, error),
      );
    return this.#of(entry, response, kind, differences);
  }

  /** How long to wait before sending `answer` (one of {@link answer}'s), in milliseconds: its recorded latency as the replayer's `latency` says (0 with `none`). */
  delayMs(answer: Answer): number {
    const { latency } = this.#replayer;
    return latency === 'none' ? 0 : latencyDelayMs(this.#latencies.get(answer), latency);
  }

  #of(
    entry: IndexedRecording,
    response: RecordedResponse,
    kind: 'exact' | 'nearest',
    differences: readonly Difference[],
  ): Answer {
    if (kind === 'nearest')
      return this.#timed(replayAnswer(entry, response, kind, sequenceStep(entry), differences), response);
    const cached = this.#exact.get(response);
    if (cached && cached.name === entry.name) return cached.answer;
    const answer = this.#timed(replayAnswer(entry, response, 'exact', sequenceStep(entry)), response);
    this.#exact.set(response, { name: entry.name, answer });
    return answer;
  }

  #timed(answer: Answer, response: RecordedResponse): Answer {
    if (response.latency) this.#latencies.set(answer, response.latency);
    return answer;
  }
}
