/**
 * What the recorder records of an exchange it forwarded: a pure decision from the route, the method
 * and the upstream's status, and the recording (redacted) and journal facts of the exchange.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import type { JournalFacts } from '../journal/journal-view.js';
import { buildRecording, splitQuery, type NormalisationPolicy, type RedactedExchange } from '../normalise/index.js';
import type { Route } from '../normalise/path.js';
import type { UpstreamAnswer } from './ask-upstream.js';
import type { ForwardedRequest } from './forward.js';

/** What the recorder was told to record (`--only`, `--record-failures`). */
export interface RecordChoice {
  /** Record only these operations (the others are passed through, not recorded). */
  only?: readonly OperationName[] | undefined;
  /** Record 5xx answers too. */
  recordFailures?: boolean | undefined;
}

/**
 * Why an exchange is passed through and not recorded (the log's note), or `undefined` to record it:
 * only GETs of the six operations are recorded, in `only` when given, 5xx only with `recordFailures`.
 * @example whyNotRecorded(routeOf('/api/g1/meta/upgrade'), 'GET', 200, {}) // 'not recorded: not an operation'
 */
export function whyNotRecorded(route: Route, method: string, status: number, choice: RecordChoice): string | undefined {
  if (route.kind !== 'operation') return 'not recorded: not an operation';
  if (method !== 'GET') return 'not recorded: only GET is recorded';
  if (choice.only && !choice.only.includes(route.operation)) return 'not recorded: not in --only';
  if (status >= 500 && !choice.recordFailures) return 'not recorded: upstream failure (use --record-failures)';
  return undefined;
}

/** The exchange as the journal first sees it (raw, with secrets; `journalView` redacts it). */
export function journalFactsOf(forwarded: ForwardedRequest, got: UpstreamAnswer): JournalFacts {
  const { method, path, search, requestHeaders } = forwarded;
  return { method, path, search, requestHeaders, status: got.status, responseHeaders: got.headers, body: got.plain };
}

/**
 * The recording of an exchange, redacted under `policy` (see `buildRecording`), with the latency
 * the upstream took and the body decoded.
 * @throws RedactionRefusedError when a redaction would make the recording invalid.
 */
export function recordingOf(
  forwarded: ForwardedRequest,
  got: UpstreamAnswer,
  policy: NormalisationPolicy,
): RedactedExchange {
  const { method, path, search, requestHeaders } = forwarded;
  const made = buildRecording(
    {
      method,
      path,
      query: splitQuery(search),
      requestHeaders,
      status: got.status,
      responseHeaders: got.headers,
      body: got.plain,
      recordedAt: new Date().toISOString(),
    },
    policy,
  );
  made.recording.response.latency = got.latency;
  return made;
}
