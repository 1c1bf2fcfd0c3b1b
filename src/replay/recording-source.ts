import type { OperationName } from '../contract/core.js';
import { MockvideoError } from '../errors.js';
import type { RecordedLatency } from '../latency/latency.js';
import { recordedBodyBytes, type RawPair, type Recording } from '../normalise/index.js';

/**
 * The stored answer of a recording, ready to send: `status`, the recorded `headers` (as stored,
 * redacted values included) and the exact `body` bytes.
 */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** How long the upstream took, when recorded (see `RecordedLatency`). */
  latency?: RecordedLatency;
}

/**
 * What the replay index needs of a recording whose response stays where it is stored (a file):
 * its name, operation, method and raw query pairs. The response is asked of the index's
 * {@link RecordingSource} when the recording is served.
 */
export interface RecordingRef {
  name: string;
  operation: OperationName;
  method: string;
  query: readonly RawPair[];
}

/**
 * Where the replay engine reads the response of a recording when it serves it, so that a large
 * recording folder need not be held in memory: `mockvideo replay` reads recording files (with a
 * bounded cache, `RecordingFileSource` in `mockvideo/node`); recordings given as objects carry their
 * response and need none. Any runtime: no Node built-ins in this interface.
 */
export interface RecordingSource {
  /**
   * The response of recording `name` (`meta-cp/0a1b2c3d4e5f-000.json`).
   * @throws RecordingUnavailableError when it cannot be read any more (file removed, broken).
   */
  response(name: string): RecordedResponse | Promise<RecordedResponse>;
}

/** The response of a recording held in memory, as a {@link RecordedResponse}. @throws Error when `bodyBase64` is not base64. */
export function responseOf(response: Recording['response']): RecordedResponse {
  const recorded: RecordedResponse = {
    status: response.status,
    headers: response.headers,
    body: recordedBodyBytes(response),
  };
  if (response.latency) recorded.latency = response.latency;
  return recorded;
}

/**
 * Thrown when the response of an indexed recording cannot be read when it is served: the file was
 * removed or broken after replay loaded the folder. `recording` names it; replay answers 500 with
 * this message instead of crashing.
 */
export class RecordingUnavailableError extends MockvideoError {
  readonly recording: string;
  constructor(recording: string, cause: string) {
    super(
      'MV_RECORDING_UNAVAILABLE',
      `Cannot serve recording ${recording}: ${cause}. It changed after replay loaded the folder; restore the file, or restart replay (with --watch, the default, the folder reloads by itself).`,
    );
    this.name = 'RecordingUnavailableError';
    this.recording = recording;
  }
}
