import {
  redactExchange,
  splitQuery,
  type NormalisationPolicy,
  type RawPair,
  type Recording,
} from '../normalise/index.js';

/** The most body characters the journal keeps of one exchange (64 KiB); the rest is left out, with a note where the whole body is. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/**
 * What the journal keeps of an exchange besides its entry: redacted with the same function as
 * recordings (`redactExchange`), the body cut at {@link JOURNAL_BODY_LIMIT} characters.
 */
export interface JournalView {
  /** Raw query pairs as sent, secrets and identifiers replaced by their placeholders. */
  rawQuery: RawPair[];
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** The response body text, redacted and cut (`''` when none). */
  responseBody: string;
}

/** The body text the journal keeps: whole up to the limit, else its start and a note naming the size and, when known, the recording that holds all of it. */
export function journalBody(text: string, recording?: string): string {
  if (text.length <= JOURNAL_BODY_LIMIT) return text;
  const where = recording ? `the whole body is in the recording ${recording}` : 'the whole body was not kept';
  // A body cut by keptBody ends with NUL and its full length.
  const length = /\u0000(\d+)$/.exec(text)?.[1] ?? String(text.length);
  return `${text.slice(0, JOURNAL_BODY_LIMIT)}\n[mockvideo] body cut at ${JOURNAL_BODY_LIMIT} of ${length} characters: ${where}.`;
}

/**
 * The part of a body the journal holds until it is first read (then redacted and cut at
 * {@link JOURNAL_BODY_LIMIT}): twice the limit, so that a secret cut in two at this point lies past
 * the part kept in the end. A longer body keeps a note of its length.
 */
export function keptBody(text: string): string {
  return text.length <= 2 * JOURNAL_BODY_LIMIT ? text : `${text.slice(0, 2 * JOURNAL_BODY_LIMIT)}\u0000${text.length}`;
}

/** An exchange as the journal first sees it: raw, with secrets. `search` is the raw query without `?`. */
export interface JournalFacts {
  method: string;
  path: string;
  search: string;
  requestHeaders: Readonly<Record<string, string>>;
  status: number;
  responseHeaders: Readonly<Record<string, string>>;
  body: string | Uint8Array;
}

/**
 * The journal view of a raw exchange, redacted by `redactExchange` under `policy` (the token,
 * credential headers, secret cookie values and every echo of them), the body cut at
 * {@link JOURNAL_BODY_LIMIT}. Identifiers stay in the query (the journal is filtered by device,
 * `_sdevid`), as the journal always kept them. With `recorded`, the response headers and body are
 * taken from that recording (already redacted, identifiers too), named by its file.
 */
export function journalView(
  facts: JournalFacts,
  policy: NormalisationPolicy,
  recorded?: { recording: Recording; file: string },
): JournalView {
  const body = recorded
    ? new Uint8Array()
    : typeof facts.body === 'string'
      ? new TextEncoder().encode(facts.body)
      : facts.body;
  const parts = redactExchange(
    {
      method: facts.method,
      path: facts.path,
      query: splitQuery(facts.search),
      requestHeaders: facts.requestHeaders,
      status: facts.status,
      responseHeaders: recorded ? {} : facts.responseHeaders,
      body,
      recordedAt: '',
    },
    { ...policy, keepIdentity: true },
  );
  const response = recorded?.recording.response ?? { headers: parts.responseHeaders, ...parts.body };
  return {
    rawQuery: parts.query,
    requestHeaders: parts.requestHeaders,
    responseHeaders: response.headers,
    responseBody: journalBody(response.body ?? response.bodyBase64 ?? '', recorded?.file),
  };
}
