import { HEADER_NAME, sendableValue } from '../contract/http-wire.js';
import type { Finding } from '../findings/index.js';
import type { Route } from './path.js';
import { FINDINGS_HEADER } from './request.js';

/**
 * The headers every device-facing answer carries (operations, media, downloads, mockvideo's own
 * errors, and what `record` passes on from its upstream), in every mode and adapter: the body is
 * never a page of mockvideo's origin. `nosniff` keeps a browser from reading JSON or text as HTML or
 * script; the sandboxing policy makes a document opened from it an opaque origin that runs no script,
 * loads nothing and cannot reach the admin API (docs/security.md, "Served bodies").
 */
export const DEVICE_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
});

/**
 * The one response step of the device-facing surface: the headers an answer is sent with, in every
 * mode and adapter (the Node host, the MSW handlers, the recorder passing on its upstream's answer).
 * `headers` are the answer's own (lower-case names; a list value, e.g. `set-cookie`, stays a list);
 * for a request to an operation (`planned.route`), `x-mockvideo-findings` counts its contract
 * findings; {@link DEVICE_ANSWER_HEADERS} come last, so that no answer (an upstream's included)
 * replaces them. Every header leaves sendable (see `sendableValue`; a name that is no HTTP token is
 * left out), so nothing an answer holds can make Node refuse to write it. To add a header to every
 * answer, add it here. Returns a new object.
 */
export function deviceHeaders<V extends string | string[]>(
  headers: Readonly<Record<string, V>>,
  planned?: { readonly route: Route; readonly findings: readonly Finding[] },
): Record<string, V | string> {
  const sent: Record<string, V | string> = {};
  // Only what the wire carries: a name that is no token is left out, a value percent-encoded where it must be.
  for (const name in headers) {
    if (!HEADER_NAME.test(name)) continue;
    const value = headers[name]!;
    sent[name] = typeof value === 'string' ? sendableValue(value) : (value.map(sendableValue) as V);
  }
  Object.assign(sent, DEVICE_ANSWER_HEADERS);
  if (planned?.route.kind === 'operation') sent[FINDINGS_HEADER] = String(planned.findings.length);
  return sent;
}
