/**
 * How a replayed answer was matched, apart from the replayer itself: the plan's `match` (sent as
 * `x-mockvideo-match`), which the routes read without loading the replay engine (which `serve`
 * never needs).
 * @module
 */

/**
 * How a replayed answer was matched (the plan's `match`, sent as `x-mockvideo-match`): `exact`,
 * `nearest`, `fallback` (a scenario answered a miss), `bundle` (an exchange of a start-up bundle,
 * in its order: `replay FILE`, `bundleHandlers`), and the recorder's `recorded` and `passthrough`
 * (an upstream answer of `--record-missing` that was not recorded, e.g. a 5xx without
 * `--record-failures`).
 */
export type MatchKind = 'exact' | 'nearest' | 'fallback' | 'bundle' | 'recorded' | 'passthrough';
