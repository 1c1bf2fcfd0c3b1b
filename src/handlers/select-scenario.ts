/** The request header a test can send to pick a scenario per request. */
export const SCENARIO_HEADER = 'x-mockvideo-scenario';

/** The response header that names the scenario that answered. */
export const ANSWERED_BY_HEADER = 'x-mockvideo-scenario';

const PREFIX = /^\/scenarios\/([^/]+)\/api\/g1(?:\/|$)/;

/**
 * The scenario a request asks for, or `undefined` to use the active one: the
 * `x-mockvideo-scenario` header first, then a base-URL prefix `/scenarios/<name>` in the path
 * (`/scenarios/gallery/api/g1/meta/cp`). The name is returned as sent (percent-decoded from the
 * path when valid); whether it exists is the caller's check. `header` is the request's
 * `x-mockvideo-scenario` value (`null`/`undefined` when absent).
 */
export function requestedScenario(pathname: string, header: string | null | undefined): string | undefined {
  if (header) return header.trim();
  const m = PREFIX.exec(pathname);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}
