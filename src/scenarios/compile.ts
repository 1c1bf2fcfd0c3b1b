import { SUCCESS_MSG, SUCCESS_RESULT, toServiceJson } from '../contract/core.js';
import { hasNowPlaceholder } from '../clock/clock.js';
import type { Fault } from '../faults/fault.js';
import type { RecordedLatency } from '../latency/latency.js';
import type { QueryValues } from '../normalise/query.js';
import type { Stub, StubResponse } from './format.js';

/**
 * A response ready to send: status, headers and the exact body text (the envelope serialised once,
 * at load time, with `&` written as `\u0026`).
 */
export interface PreparedResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** True when `body` contains {@link ORIGIN_PLACEHOLDER}, to be replaced per request. */
  hasOrigin?: boolean;
  /** A fault that changes or replaces this answer. */
  fault?: Fault;
  /** True when `body` holds a time relative to the clock (`"{now-2y}"`, see `NOW_PLACEHOLDER`), resolved per answer. */
  hasNow?: boolean;
  /** How long the real service took (from a recording): the answer waits for it (see `--latency`). */
  latency?: RecordedLatency;
}

/**
 * The placeholder scenario data may use in URLs (`{origin}/media/thumb/1.png`); each answer replaces
 * it with the origin the client used (scheme, host and port), so an offline device loads media from
 * mockvideo itself.
 */
export const ORIGIN_PLACEHOLDER = '{origin}';

/** The body of `prepared` for a request made to `origin` (e.g. `http://10.0.2.2:8787`). */
export function bodyFor(prepared: PreparedResponse, origin: string): string {
  return prepared.hasOrigin ? prepared.body.split(ORIGIN_PLACEHOLDER).join(origin) : prepared.body;
}

/** A stub ready to match: its query condition as `[name, value]` pairs and its responses in order. */
export interface CompiledStub {
  /** Every pair must be among the request's query values. Empty: matches every request. */
  query: ReadonlyArray<readonly [string, string]>;
  /** One response, or a sequence served in order whose last one repeats. */
  responses: readonly PreparedResponse[];
}

/** The content type of every operation's answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The headers of a stub's answer as HTTP carries them (and the Fetch API would make them): names in
 * lower case, values without surrounding spaces or tabs, two spellings of one name joined with `, `;
 * `content-type` is JSON unless the stub says otherwise.
 */
function responseHeaders(extra: Readonly<Record<string, string>>): Record<string, string> {
  // A Map, then fromEntries: a header may be called `__proto__`.
  const given = new Map<string, string>();
  for (const [name, value] of Object.entries(extra)) {
    const lower = name.toLowerCase();
    const trimmed = value.replace(/^[\t ]+|[\t ]+$/g, '');
    const before = given.get(lower);
    given.set(lower, before === undefined ? trimmed : `${before}, ${trimmed}`);
  }
  // A given content-type replaces the default in its place, first.
  // Frozen: shared by every answer of the stub (the response step caches its sendable copy).
  return Object.freeze(Object.fromEntries([['content-type', JSON_CONTENT_TYPE], ...given]));
}

/**
 * Serialises one stub response: the envelope `{ data, msg, result }` (defaults `"OK"` and `1`) as the
 * service writes it, with status 200 unless the stub says otherwise.
 * @see docs/contract.md#envelope and docs/contract.md#errors.
 */
export function prepareResponse(response: StubResponse): PreparedResponse {
  // A `body` is served as written: a recorded answer keeps its own escapes, key order and spacing.
  const body =
    response.body ??
    toServiceJson({ data: response.data, msg: response.msg ?? SUCCESS_MSG, result: response.result ?? SUCCESS_RESULT });
  const prepared: PreparedResponse = {
    status: response.status ?? 200,
    headers: responseHeaders(response.headers ?? {}),
    body,
  };
  if (body.includes(ORIGIN_PLACEHOLDER)) prepared.hasOrigin = true;
  if (response.fault) prepared.fault = response.fault;
  if (hasNowPlaceholder(body)) prepared.hasNow = true;
  if (response.latency) prepared.latency = response.latency;
  return prepared;
}

/** Compiles a parsed stub: condition pairs and prepared responses. */
export function compileStub(stub: Stub): CompiledStub {
  const responses = stub.sequence ?? [stub as StubResponse];
  return {
    query: Object.entries(stub.when?.query ?? {}),
    responses: responses.map(prepareResponse),
  };
}

/** True when every condition pair of the stub is among the request's query values (decoded, see `queryValues`). */
export function stubMatches(stub: CompiledStub, query: QueryValues): boolean {
  return stub.query.every(([name, value]) => query.get(name)?.includes(value) === true);
}
