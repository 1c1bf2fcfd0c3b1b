import { prefixed } from '../errors.js';
import {
  recordedBodyBytes,
  redactExchange,
  splitQuery,
  type NormalisationPolicy,
  type RawPair,
  type Recording,
  type StoredBody,
} from '../normalise/index.js';

/** The most body characters the journal shows of one exchange (64 KiB: the dashboard, `GET /requests/ID`, the HAR); the rest is left out there, with a note where the whole body is. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

/**
 * What the journal keeps of an exchange besides its entry: redacted with the same function as
 * recordings (`redactExchange`); the body twice, whole (for a start-up's bundle) and cut at
 * {@link JOURNAL_BODY_LIMIT} characters (for the dashboard, the detail call and the HAR).
 */
export interface JournalView {
  /** Raw query pairs as sent, secrets and identifiers replaced by their placeholders. */
  rawQuery: RawPair[];
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** The response body text, redacted and cut (`''` when none). */
  responseBody: string;
  /**
   * The whole response body as sent, redacted, for a start-up's bundle. Up to
   * {@link JOURNAL_BODY_LIMIT} characters, as stored (see `storeBody`): the same string as
   * {@link responseBody}, held once. A longer one as its bytes: the answer's own buffer when
   * nothing in it was redacted (a scenario's answer is one buffer shared by every request), kept off
   * V8's heap, which grows to about four times what it keeps alive before it collects (`record` of 6
   * clients × 300 exchanges of 1 MiB, the journal holding 32 of them: 278–306 MiB RSS as text, 236–260 MiB as bytes).
   */
  answerBody: StoredBody | Uint8Array;
}

/** The bytes of a whole body as the journal keeps it (see {@link JournalView.answerBody}). */
export function answerBytes(answer: JournalView['answerBody']): Uint8Array {
  return answer instanceof Uint8Array ? answer : recordedBodyBytes(answer);
}

/** What a whole body as the journal keeps it counts in the journal's bound: its bytes, or its stored text's characters. */
export function answerSize(answer: JournalView['answerBody']): number {
  return answer instanceof Uint8Array ? answer.byteLength : (answer.body ?? answer.bodyBase64).length;
}

/**
 * The first `length` characters of `text` as a string of their own: `text.slice` gives a view that
 * keeps all of `text` alive in V8 (a sliced string). A JSON round trip copies every code unit, lone
 * surrogates too, in any runtime.
 */
function head(text: string, length: number): string {
  return JSON.parse(JSON.stringify(text.slice(0, length))) as string;
}

/** The body text the journal shows: whole up to the limit, else its start and a note naming the size and where all of it is (the recording, when known). */
function journalBody(text: string, recording?: string): string {
  if (text.length <= JOURNAL_BODY_LIMIT) return text;
  const where = recording
    ? `the whole body is in the recording ${recording}`
    : "the whole body is in the start-up's bundle (GET /__mockvideo/start-ups/ID/bundle)";
  return `${head(text, JOURNAL_BODY_LIMIT)}\n${prefixed(`body cut at ${JOURNAL_BODY_LIMIT} of ${text.length} characters: ${where}.`)}`;
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
 * credential headers, secret cookie values and every echo of them), the body whole and cut at
 * {@link JOURNAL_BODY_LIMIT}. Identifiers stay in the query (the journal is filtered by device,
 * `_sdevid`), as the journal always kept them. With `recorded`, the response headers and body are
 * taken from that recording (already redacted, identifiers too), named by its file when it is one;
 * `bytes`, when given, are its body's exact bytes (the upstream's, when nothing in them was redacted).
 */
export function journalView(
  facts: JournalFacts,
  policy: NormalisationPolicy,
  recorded?: { recording: Recording; file?: string | undefined; bytes?: Uint8Array | undefined },
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
  const stored: StoredBody =
    response.bodyBase64 !== undefined ? { bodyBase64: response.bodyBase64 } : { body: response.body ?? '' };
  const text = stored.body ?? stored.bodyBase64;
  const unchanged = recorded ? recorded.bytes : !parts.redactions.some((r) => r.where === 'response.body') && body;
  return {
    rawQuery: parts.query,
    requestHeaders: parts.requestHeaders,
    responseHeaders: response.headers,
    responseBody: journalBody(text, recorded?.file),
    answerBody: text.length <= JOURNAL_BODY_LIMIT ? stored : unchanged || recordedBodyBytes(stored),
  };
}
