/**
 * The request shape every route reads and the planned answer every adapter carries out.
 * Pure, any runtime.
 * @module
 */
import type { Finding } from '../findings/index.js';
import type { Route } from './path.js';

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
 * What to do for one request, whatever carries it out:
 * - `answer`: wait `delayMs` milliseconds (0: at once), then send `answer`;
 * - `drop`: wait `delayMs`, then close the connection without an answer (the `reset` and `hang` faults: `fault` names it);
 * - `pass`: not answered here: the recorder (or `--record-missing`) forwards it to the upstream, at
 *   the route's own path (an operation's or `meta/upgrade`'s, see {@link forwardPath}), and passes
 *   the upstream's answer on with the `marks` headers of what became of the exchange (see {@link PassMarks});
 * - `none`: not a route of the device-facing surface (the host's own or nobody's).
 *
 * `route` is where the request went; `findings` the contract findings of a request to an operation
 * (empty otherwise; the adapters send their count in {@link FINDINGS_HEADER}).
 */
export type Plan =
  | {
      readonly kind: 'answer';
      readonly route: Route;
      readonly findings: readonly Finding[];
      readonly delayMs: number;
      readonly answer: Answer;
    }
  | {
      readonly kind: 'drop';
      readonly route: Route;
      readonly findings: readonly Finding[];
      readonly delayMs: number;
      readonly fault: 'reset' | 'hang';
    }
  | { readonly kind: 'pass'; readonly route: Route; readonly findings: readonly Finding[]; readonly marks?: PassMarks }
  | { readonly kind: 'none'; readonly route: Route; readonly findings: readonly Finding[] };

/**
 * Headers the recorder adds to the upstream's answer of a `pass` plan, by what became of the
 * exchange: `recorded` (stored) or `passthrough` (passed on, not recorded on purpose). None on an
 * exchange whose recording was lost, nor on mockvideo's own errors. With marks, the answer waits
 * until its recording is stored; without them the client is answered first.
 */
export interface PassMarks {
  readonly recorded: Readonly<Record<string, string>>;
  readonly passthrough: Readonly<Record<string, string>>;
}

/** The plan that sends `answer` after `delayMs` milliseconds (0: at once). */
export function answerPlan(route: Route, findings: readonly Finding[], answer: Answer, delayMs = 0): Plan {
  return { kind: 'answer', route, findings, delayMs, answer };
}

/** The response header that counts the contract findings of a request to an operation. */
export const FINDINGS_HEADER = 'x-mockvideo-findings';

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

/** One header's value as text (several values joined with `, `), or `undefined`. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether a request says it has a body (a `content-length` above 0 or a `transfer-encoding`). */
export function hasBody(headers: RequestHeaders): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/** The body of an answer as text, as the journal keeps it: bytes decoded as UTF-8. */
export function bodyText(answer: Answer): string {
  return typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
}
