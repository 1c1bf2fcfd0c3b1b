/**
 * The request shape every route reads and the planned answer every adapter carries out.
 * Pure, any runtime.
 * @module
 */
import { flatValue } from '../contract/http-wire.js';
import type { Finding } from '../findings/index.js';
import type { FaultKind } from '../faults/fault.js';
import type { MatchKind } from '../replay/headers.js';
import type { Route } from '../normalise/path.js';

/**
 * Request headers as routes read them: lower-case names, as Node's `IncomingMessage.headers` has
 * them (an adapter with a `Headers` object makes one with {@link headerRecord}).
 */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One request to mockvideo's device-facing surface, whatever carried it. */
export interface RouteRequest {
  /** Upper-case method, e.g. `GET`. */
  method: string;
  /** The path as sent, not decoded (`/scenarios/gallery/api/g1/meta/cp`); routed by `routeOf`. */
  path: string;
  /** The raw query as sent, without `?` (`''` without one). */
  query: string;
  /** The origin the client used (`http://10.0.2.2:8787`), for `{origin}` in bodies. */
  origin: string;
  headers: RequestHeaders;
  /**
   * The connection's remote address, when the adapter knows it (the Node host; msw does not): it
   * names the client of a request without `_sdevid` and `_anoyid` (see `clientOf`).
   */
  address?: string | undefined;
  /**
   * Aborted when the client goes away before it is answered (the Node host's connection closed, a
   * fetch aborted): a planned wait ends then (the MSW adapter's). Absent when the adapter cannot tell.
   */
  signal?: AbortSignal | undefined;
}

/**
 * An answer ready to send: status, headers (lower-case names) and the exact body (text, sent as
 * UTF-8, or bytes). Never changed once made.
 */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

/**
 * What the routes decided for one request besides what to send: the facts every carrier and the
 * journal read from the plan (never from the `x-mockvideo-*` headers the response step renders from
 * them, see `deviceHeaders`). Each is absent when it does not apply.
 */
export interface PlanFacts {
  /** The scenario that answered (its stub, its fault, its 404), e.g. `gallery`; sent as `x-mockvideo-scenario`. */
  readonly scenario?: string | undefined;
  /** How a replayed answer was matched (`exact`, `nearest`, `fallback`; the recorder's `recorded`, `passthrough`); sent as `x-mockvideo-match`. */
  readonly match?: MatchKind | undefined;
  /** The recording that answered, by file (`meta-cp/0a1b2c3d4e5f-000.json`); sent as `x-mockvideo-recording`. */
  readonly recording?: string | undefined;
  /** For a `nearest` match: the query parameters that differ from the recording served; sent as `x-mockvideo-differences`. */
  readonly differences?: readonly string[] | undefined;
  /** Which step of a sequence (a stub's, or a key's recordings) answered, `2/3` (see `stepText`); sent as `x-mockvideo-step`. */
  readonly step?: string | undefined;
  /** The fault that changed the answer (`delay`, `status`, …, `reset`, `hang`); sent as `x-mockvideo-fault`. */
  readonly fault?: FaultKind | undefined;
  /** Under `serve --fuzz`: the case of the generated answer (`42:meta/plugin:3`); sent as `x-mockvideo-fuzz`. */
  readonly fuzz?: string | undefined;
}

/**
 * What to do for one request, whatever carries it out, and what was decided ({@link PlanFacts}):
 * - `answer`: wait `delayMs` milliseconds (0: at once), then send `answer`;
 * - `drop`: wait `delayMs`, then close the connection without an answer (the `reset` and `hang`
 *   faults: `fault` names it);
 * - `pass`: not answered here: the recorder (or `--record-missing`) forwards it to the upstream, at
 *   the route's own path (an operation's or `meta/upgrade`'s, see {@link forwardPath}), and passes
 *   the upstream's answer on; with `marked`, the answer says what became of its recording
 *   (`x-mockvideo-match: recorded` or `passthrough`) and waits until the recording is stored;
 * - `none`: not a route of the device-facing surface (the host's own or nobody's).
 *
 * `route` is where the request went; `findings` the contract findings of a request to an operation
 * (empty otherwise; the response step sends their count in `x-mockvideo-findings`).
 */
export type Plan =
  | (PlanFacts & {
      readonly kind: 'answer';
      readonly route: Route;
      readonly findings: readonly Finding[];
      readonly delayMs: number;
      readonly answer: Answer;
    })
  | (PlanFacts & {
      readonly kind: 'drop';
      readonly route: Route;
      readonly findings: readonly Finding[];
      readonly delayMs: number;
      readonly fault: 'reset' | 'hang';
    })
  | (PlanFacts & {
      readonly kind: 'pass';
      readonly route: Route;
      readonly findings: readonly Finding[];
      readonly marked?: boolean;
    })
  | (PlanFacts & { readonly kind: 'none'; readonly route: Route; readonly findings: readonly Finding[] });

/** The plan that sends `answer` after `delayMs` milliseconds (0: at once), with the `facts` decided. */
export function answerPlan(
  route: Route,
  findings: readonly Finding[],
  answer: Answer,
  delayMs = 0,
  facts: PlanFacts = {},
): Extract<Plan, { kind: 'answer' }> {
  // One shape for every answer plan (each fact named, absent ones undefined): the host reads them monomorphically.
  return {
    kind: 'answer',
    route,
    findings,
    delayMs,
    answer,
    scenario: facts.scenario,
    match: facts.match,
    recording: facts.recording,
    differences: facts.differences,
    step: facts.step,
    fault: facts.fault,
    fuzz: facts.fuzz,
  };
}

/** The longest request target served (path and query), in characters (the client's longest is about 1,200); longer ones get 414. */
export const MAX_URL_LENGTH = 8192;

/** A `Headers` object as {@link RequestHeaders}. */
export function headerRecord(headers: Headers): RequestHeaders {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** One header's value as text (several values joined with `, `, see `flatValue`), or `undefined`. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  return flatValue(headers[name]);
}

/** Whether a request says it has a body (a `content-length` above 0 or a `transfer-encoding`). */
export function hasBody(headers: RequestHeaders): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/** The body of an answer as text, as the journal keeps it: bytes decoded as UTF-8. */
export function bodyText(answer: Answer): string {
  return typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
}
