import { REDACTED } from '../normalise/policy.js';
import { formatNearMissReport, type Difference, type NearMissReport } from '../replay/near-miss.js';
import { latencyDelayMs, type RecordedLatency } from '../latency/latency.js';
import { sequenceStep, type IndexedRecording } from '../replay/recording-index.js';
import type { RecordedResponse } from '../replay/recording-source.js';
import type { Replayer } from '../replay/replayer.js';
import { errorText } from '../errors.js';
import { errorBody } from './errors.js';
import { headerValue, type Answer, type PlanFacts, type RequestHeaders } from './request.js';

/**
 * The stored answer of a recording, byte for byte. A redacted credential header
 * (`set-cookie: <REDACTED>`) is not sent: it carries nothing but would break cookie parsing.
 */
function replayAnswer(response: RecordedResponse): Answer {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(response.headers).sort()) {
    const value = response.headers[name]!;
    if (value !== REDACTED) headers[name.toLowerCase()] = value;
  }
  // Frozen: made once per recording and shared by its answers (the response step caches its sendable copy).
  return { status: response.status, headers: Object.freeze(headers), body: response.body };
}

/** What the plan of a recording's answer says of it: how it was matched, which recording, its step, what differs. */
export function recordingFacts(
  entry: IndexedRecording,
  kind: 'exact' | 'nearest',
  differences: readonly Difference[] = [],
): PlanFacts {
  const step = sequenceStep(entry);
  return {
    match: kind,
    recording: entry.name,
    ...(kind === 'nearest' ? { differences: differences.map((d) => d.parameter) } : {}),
    ...(step !== undefined ? { step } : {}),
  };
}

/**
 * The 500 answer for a recording whose response cannot be read any more (`error`, e.g. a
 * `RecordingUnavailableError`): JSON `{ error, recording }` (the plan names the recording).
 */
function unavailableAnswer(entry: IndexedRecording, error: Error): Answer {
  return errorBody('MV_RECORDING_UNAVAILABLE', errorText(error), { recording: entry.name });
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
  return errorBody('MV_NO_RECORDING', error, details);
}

/**
 * The answers of recordings, made once per response object of the recording source (so an answer
 * lives only as long as the source's bounded cache keeps its response), with their recorded latency.
 */
export class RecordingAnswers {
  readonly #made = new WeakMap<RecordedResponse, Answer>();
  /** The recorded latency of each answer made from a response that has one. */
  readonly #latencies = new WeakMap<Answer, RecordedLatency>();
  readonly #replayer: Replayer;

  constructor(replayer: Replayer) {
    this.#replayer = replayer;
  }

  /** The answer of `entry` (read from its source when needed), or the 500 of {@link unavailableAnswer}. */
  answer(entry: IndexedRecording): Answer | Promise<Answer> {
    let response: RecordedResponse | Promise<RecordedResponse>;
    try {
      response = this.#replayer.response(entry);
    } catch (error) {
      return unavailableAnswer(entry, error as Error);
    }
    if (response instanceof Promise)
      return response.then(
        (read) => this.#of(read),
        (error: Error) => unavailableAnswer(entry, error),
      );
    return this.#of(response);
  }

  /** How long to wait before sending `answer` (one of {@link answer}'s), in milliseconds: its recorded latency as the replayer's `latency` says (0 with `none`). */
  delayMs(answer: Answer): number {
    const { latency } = this.#replayer;
    return latency === 'none' ? 0 : latencyDelayMs(this.#latencies.get(answer), latency);
  }

  #of(response: RecordedResponse): Answer {
    let answer = this.#made.get(response);
    if (!answer) {
      answer = replayAnswer(response);
      this.#made.set(response, answer);
      if (response.latency) this.#latencies.set(answer, response.latency);
    }
    return answer;
  }
}
