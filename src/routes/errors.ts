import { ERROR_CODES, type AnswerCode } from '../error-codes.js';
import { didYouMean, errorText } from '../errors.js';
import type { Finding } from '../findings/index.js';
import { OPERATION_NAMES, API_PREFIX } from '../contract/core.js';
import { JSON_CONTENT_TYPE, type CompiledStub } from '../scenarios/compile.js';
import type { Route } from '../normalise/path.js';
import type { Answer, Plan } from './request.js';

/**
 * A mockvideo error answer (not the service's envelope, which the seed does not show for failures):
 * `{ "error": "<what, why, next step>", "code": "MV_…", ...details }` as JSON, with the HTTP status
 * of `code` in `ERROR_CODES` (docs/errors.md). Every status answer of mockvideo's own, in every mode,
 * adapter and the admin app, is built here, in this one shape; `error` carries no prefix.
 * @example errorBody('MV_NOT_FUZZING', 'This server is not fuzzing.').status // 404
 */
export function errorBody(code: AnswerCode, error: string, details: Record<string, unknown> = {}): Answer {
  return {
    status: ERROR_CODES[code].status,
    headers: { 'content-type': JSON_CONTENT_TYPE },
    body: JSON.stringify({ error, code, ...details }),
  };
}

/** 404 for a path under `/api/g1` that is not one of the six operations; lists them. */
export function unknownOperation(pathname: string) {
  return errorBody(
    'MV_UNKNOWN_OPERATION',
    `No operation at ${pathname}. mockvideo serves the six operations of the contract.`,
    {
      operations: OPERATION_NAMES.map((name) => `GET ${API_PREFIX}/${name}`),
    },
  );
}

/**
 * 405 for a method other than GET or HEAD on a route of the device-facing surface (`path`, as routed):
 * every operation is a GET, and so are `meta/upgrade` and the downloads. `allow: GET, HEAD`.
 */
export function methodNotAllowed(method: string, path: string) {
  const answer = errorBody(
    'MV_METHOD_NOT_ALLOWED',
    `${method} is not allowed on ${path}: every operation is a GET without a body, and so is every download mockvideo serves.`,
    { allowed: ['GET', 'HEAD'] },
  );
  return { ...answer, headers: { ...answer.headers, allow: 'GET, HEAD' } };
}

/** 404 for a scenario name that is not loaded; lists the loaded ones, and suggests the closest for a typo. */
export function unknownScenario(name: string, known: readonly string[]) {
  return errorBody('MV_SCENARIO_UNKNOWN', `Unknown scenario "${name}".${didYouMean(name, known)}`, {
    scenarios: known,
  });
}

/** 404 when no stub of the scenario's operation matches the request; shows every stub's condition. */
export function noStubMatched(scenario: string, operation: string, stubs: readonly CompiledStub[]) {
  return errorBody('MV_NO_STUB', `No stub of scenario "${scenario}" for ${operation} matches this request's query.`, {
    scenario,
    operation,
    stubs: stubs.map((stub) => ({ when: { query: Object.fromEntries(stub.query) } })),
  });
}

/** 400 of `--strict-requests` for a request to an operation with contract findings; lists them. */
export function strictRequestsError(findings: readonly Finding[]) {
  return errorBody(
    'MV_REQUEST_INVALID',
    `This request breaks the contract (${findings.length} finding${findings.length === 1 ? '' : 's'}); --strict-requests answers it with 400.`,
    { findings },
  );
}

/** 414 for a request target (path and query) longer than the `limit` mockvideo serves. */
export function targetTooLong(length: number, limit: number) {
  return errorBody(
    'MV_TARGET_TOO_LONG',
    `The request target is ${length} characters; mockvideo serves at most ${limit}.`,
  );
}

/** 400 for a request without a valid `Host` header: no origin to answer `{origin}` with. */
export function noHostHeader() {
  return errorBody('MV_REQUEST_UNREADABLE', 'Cannot read this request: it has no valid Host header.');
}

/** 403 for a request the recorder must not forward (`reason`: a foreign `Host`, a cross-site `Origin`; see `RoutesOptions.refuse`). */
export function refusedForwarding(reason: string) {
  return errorBody(
    'MV_FOREIGN_REQUEST',
    `Refused: ${reason}. The recorder forwards only requests of devices and tools to this server (add a name with --allow-host).`,
  );
}

/** 500 for a request mockvideo itself failed to answer (a fault of ours, never the client's): names mockvideo. */
function ourFault(message: string) {
  return errorBody('MV_INTERNAL', `mockvideo failed to answer: ${message}`);
}

/** The plan of a request the routes failed to plan (they threw or rejected with `error`): {@link ourFault}'s 500, answered and journaled as any other. */
export function failedPlan(route: Route, error: unknown): Extract<Plan, { kind: 'answer' }> {
  return { kind: 'answer', route, findings: [], delayMs: 0, answer: ourFault(errorText(error)) };
}

/**
 * The answer when the upstream of `record` (or `--record-missing`) gave none mockvideo can pass on:
 * `MV_UPSTREAM_TIMEOUT` (504, too slow) or a 502 code (down, certificate, body too large or not
 * decodable), `{ error, code, upstream, cause, ...details }`; `error` names the upstream, the
 * request and the next step.
 */
export function upstreamFailed(
  code: Extract<AnswerCode, `MV_UPSTREAM_${string}`>,
  error: string,
  upstream: string,
  cause: string,
  details: Record<string, unknown> = {},
): Answer {
  return errorBody(code, error, { upstream, cause, ...details });
}
