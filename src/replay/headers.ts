/**
 * The response headers of replayed answers, apart from the replayer itself: the request log and the
 * journal read `x-mockvideo-match` on every answer without loading the replay engine (which `serve`
 * never needs).
 * @module
 */

/**
 * The value of the `x-mockvideo-match` response header: `passthrough` is an upstream answer of
 * `--record-missing` that was not recorded (a 5xx without `--record-failures`).
 */
export type MatchKind = 'exact' | 'nearest' | 'fallback' | 'recorded' | 'passthrough';

/** The response header that says how a replayed answer was matched. */
export const MATCH_HEADER = 'x-mockvideo-match';

/** The response header of a `nearest` answer that lists the parameters that differ from the recording served. */
export const DIFFERENCES_HEADER = 'x-mockvideo-differences';

/** The response header that names the recording that answered. */
export const RECORDING_HEADER = 'x-mockvideo-recording';
