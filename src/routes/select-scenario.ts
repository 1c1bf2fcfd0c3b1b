/** The request header a test can send to pick a scenario per request. */
export const SCENARIO_HEADER = 'x-mockvideo-scenario';

/**
 * The scenario a request asks for, or `undefined` to use the active one: the
 * `x-mockvideo-scenario` header first (`header`, trimmed; `null`/`undefined` when absent), then the
 * name of the route's `/scenarios/<name>` prefix (`prefixed`, as `routeOf` decoded it). Whether it
 * exists is the caller's check.
 */
export function requestedScenario(prefixed: string | undefined, header: string | null | undefined): string | undefined {
  return header ? header.trim() : prefixed;
}
