import { headerValue, type RouteRequest } from './request.js';
import type { ScenarioAnswerSource } from './scenario.js';

/** The request header a test can send to pick a scenario per request. */
export const SCENARIO_HEADER = 'x-mockvideo-scenario';

/**
 * The scenario a request asks for, or `undefined` to use the active one: the
 * `x-mockvideo-scenario` header first (`header`, trimmed; `null`/`undefined` when absent), then the
 * name of the route's `/scenarios/<name>` prefix (`prefixed`, as `routeOf` decoded it). Whether it
 * exists is the caller's check.
 */
function requestedScenario(prefixed: string | undefined, header: string | null | undefined): string | undefined {
  return header ? header.trim() : prefixed;
}

/**
 * The scenario that answers `request` (routed with the `/scenarios/<name>` prefix `prefixed`, or
 * none), the one precedence every scenario answer follows (operations, `meta/upgrade`, a replay's
 * fallback): the scenario the request picks itself ({@link requestedScenario}: the header, then the
 * prefix), else its device's own (`source.deviceScenario`, set per `_sdevid` while the server runs),
 * else the server's (`source.activeScenario`). Whether it exists is the caller's check.
 * @see docs/qa-and-scenarios.md, "Which scenario answers".
 */
export function scenarioOf(
  source: Pick<ScenarioAnswerSource, 'activeScenario' | 'deviceScenario'>,
  request: RouteRequest,
  prefixed: string | undefined,
): string {
  return (
    requestedScenario(prefixed, headerValue(request.headers, SCENARIO_HEADER)) ??
    source.deviceScenario?.(request) ??
    source.activeScenario()
  );
}
