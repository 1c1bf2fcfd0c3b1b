/**
 * The one response step of the device-facing surface: the headers every answer goes out with, in
 * every mode and adapter, rendered from the plan. Pure, any runtime.
 * @module
 */
import { HEADER_NAME, sendableValue } from '../contract/http-wire.js';
import type { Finding } from '../findings/index.js';
import type { Route } from '../normalise/path.js';
import type { PlanFacts } from './request.js';

/**
 * The sendable copy of each frozen header record (a scenario's prepared answer: shared by every
 * answer it makes), made once instead of per request. With one shape for answer plans
 * (`answerPlan`), `serve`'s CPU per request went from 63 to 58 µs (−8%; the bench's `serve` case:
 * autocannon, 50 connections, the six operations, server pinned to one core, median of 3
 * interleaved 4-s rounds, Node 20).
 */
const sendableCopies = new WeakMap<object, Readonly<Record<string, string | string[]>>>();

/** `headers` with names that are not tokens left out and values made sendable (`sendableValue`); cached for frozen records. */
function sendableHeaders<V extends string | string[]>(
  headers: Readonly<Record<string, V>>,
): Readonly<Record<string, V>> {
  const frozen = Object.isFrozen(headers);
  const known = frozen ? sendableCopies.get(headers) : undefined;
  if (known) return known as Readonly<Record<string, V>>;
  const sent: Record<string, V> = {};
  for (const name in headers) {
    if (!HEADER_NAME.test(name)) continue;
    const value = headers[name]!;
    sent[name] = typeof value === 'string' ? (sendableValue(value) as V) : (value.map(sendableValue) as V);
  }
  if (frozen) sendableCopies.set(headers, Object.freeze(sent));
  return sent;
}

/** The response header that names the scenario that answered. */
const ANSWERED_BY_HEADER = 'x-mockvideo-scenario';
/** The response header that says how a replayed answer was matched (see `MatchKind`). */
export const MATCH_HEADER = 'x-mockvideo-match';
/** The response header that names the recording that answered. */
export const RECORDING_HEADER = 'x-mockvideo-recording';
/** The response header of a `nearest` answer that lists the parameters that differ from the recording served. */
const DIFFERENCES_HEADER = 'x-mockvideo-differences';
/** The response header that says which step of a sequence answered, e.g. `2/3` (see `stepText`). */
const STEP_HEADER = 'x-mockvideo-step';
/** The response header that names the fault applied to an answer. */
const FAULT_HEADER = 'x-mockvideo-fault';
/** The response header that names the case of a generated answer, e.g. `42:meta/plugin:3`. */
export const FUZZ_HEADER = 'x-mockvideo-fuzz';
/** The response header that counts the contract findings of a request to an operation. */
const FINDINGS_HEADER = 'x-mockvideo-findings';

/**
 * The headers every device-facing answer carries (operations, media, downloads, mockvideo's own
 * errors, and what `record` passes on from its upstream), in every mode and adapter: the body is
 * never a page of mockvideo's origin. `nosniff` keeps a browser from reading JSON or text as HTML or
 * script; the sandboxing policy makes a document opened from it an opaque origin that runs no script,
 * loads nothing and cannot reach the admin API (docs/security.md, "Served bodies").
 */
const DEVICE_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
});

/** What the response step reads of a plan: where the request went, its findings, what was decided. */
export type PlannedAnswer = PlanFacts & { readonly route: Route; readonly findings: readonly Finding[] };

/**
 * The one response step of the device-facing surface: the headers an answer is sent with, in every
 * mode and adapter (the Node host, the MSW adapter, the recorder passing on its upstream's answer).
 * `headers` are the answer's own (lower-case names; a list value, e.g. `set-cookie`, stays a list).
 * From `planned` come the `x-mockvideo-*` headers of what the routes decided (scenario, match,
 * recording, differences, step, fault, fuzz case, and for a request to an operation the count of its
 * contract findings), then {@link DEVICE_ANSWER_HEADERS}, last, so that no answer (an upstream's
 * included) replaces them. Everything leaves sendable: a name that is no HTTP token is left out, a
 * value percent-encoded where the wire cannot carry it (see `sendableValue`), so nothing an answer,
 * a recording or a request holds can make Node refuse to write it. Returns a new object.
 */
export function deviceHeaders<V extends string | string[]>(
  headers: Readonly<Record<string, V>>,
  planned?: PlannedAnswer,
): Record<string, V | string> {
  // Copied name by name into a new object, the device headers set one by one: a spread of the frozen
  // copy (`{ ...copy }`) and `Object.assign` made every later store take V8's slow path, in the
  // server though not in a loop of its own: `serve` took 45 instead of 34 µs of CPU per request
  // (22,700 → 28,600 req/s; the bench's `serve` case, median of 3 interleaved 4-s rounds, Node 20).
  const copy = sendableHeaders(headers);
  const sent: Record<string, V | string> = {};
  for (const name in copy) sent[name] = copy[name]!;
  if (planned) {
    const { scenario, match, recording, differences, step, fault, fuzz } = planned;
    if (scenario !== undefined) sent[ANSWERED_BY_HEADER] = sendableValue(scenario);
    if (match !== undefined) sent[MATCH_HEADER] = match;
    if (recording !== undefined) sent[RECORDING_HEADER] = sendableValue(recording);
    if (differences !== undefined) sent[DIFFERENCES_HEADER] = sendableValue(differences.join(', ') || '(none)');
    if (step !== undefined) sent[STEP_HEADER] = step;
    if (fault !== undefined) sent[FAULT_HEADER] = fault;
    if (fuzz !== undefined) sent[FUZZ_HEADER] = sendableValue(fuzz);
    if (planned.route.kind === 'operation') sent[FINDINGS_HEADER] = String(planned.findings.length);
  }
  for (const name in DEVICE_ANSWER_HEADERS) sent[name] = DEVICE_ANSWER_HEADERS[name]!;
  return sent;
}
