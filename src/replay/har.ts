import type { Entry, Har, Header } from 'har-format';
import statuses from 'statuses';
import { operationOfPath } from '../contract/core.js';
import { harLatency } from '../latency/latency.js';
import {
  RedactionRefusedError,
  recordedBodyBytes,
  buildRecording,
  fromBase64,
  splitQuery,
  type NamedRecording,
  type NormalisationPolicy,
  type Recording,
} from '../normalise/index.js';
import { recordingRules } from '../normalise/recording-rules.js';
import { PACKAGE_VERSION } from '../version.generated.js';
import { errorText } from '../errors.js';

/** What {@link recordingsFromHar} made of a HAR: recordings in `startedDateTime` order, and the entries it skipped with why. */
export interface HarImport {
  recordings: Recording[];
  skipped: Array<{ url: string; reason: string }>;
  /** Leaked raw values the redaction scan replaced. */
  leaks: number;
}

/** A HAR entry's headers that cannot be read (the entry is skipped with its message). */
class HarHeaderError extends Error {}

/**
 * A HAR entry's headers by lower-case name, repeated ones joined with `, `, in an object without a
 * prototype (a header named `constructor` is stored as sent). HTTP/2 pseudo-headers are left out.
 * @throws HarHeaderError when a header is not `{ name, value }` with string values.
 */
function harHeaders(headers: readonly Header[] | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (headers !== undefined && !Array.isArray(headers)) throw new HarHeaderError('its headers are not a list');
  for (const header of headers ?? []) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string')
      throw new HarHeaderError(`a header is not {"name": "…", "value": "…"}: ${JSON.stringify(header)?.slice(0, 60)}`);
    const { name, value } = header;
    if (name.startsWith(':')) continue; // HTTP/2 pseudo-headers of Chrome's export
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}

/** The response body of an entry, or why there is none. */
function entryBody(entry: Entry): Uint8Array | string {
  const content = entry.response.content as Entry['response']['content'] | null | undefined;
  const text: unknown = content?.text;
  if (text === undefined || text === null) return 'the response body was not saved in the HAR (export it with content)';
  if (typeof text !== 'string') return 'response.content.text is not text';
  if (content!.encoding !== 'base64') return new TextEncoder().encode(text);
  // As HAR writers use it: standard alphabet, padding optional, whitespace allowed.
  try {
    return fromBase64(text.replace(/\s/g, ''));
  } catch {
    return 'response.content.text says base64 but is not valid base64';
  }
}

/** Why a HAR entry cannot be read at all (not an object, no request URL, no response), or `undefined`. */
function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return `not a HAR entry (${entry === null ? 'null' : typeof entry})`;
  const { request, response } = entry as Partial<Entry>;
  if (typeof request !== 'object' || request === null || typeof request.url !== 'string')
    return 'it has no request.url';
  if (typeof response !== 'object' || response === null || typeof response.status !== 'number')
    return 'it has no response.status';
  return undefined;
}

/**
 * Turns a HAR 1.2 log (from Chrome DevTools, Playwright's `recordHar`, Charles or mitmproxy) into
 * recordings of the six `/api/g1` operations, redacted under `policy`; other entries are skipped, and
 * so are those whose recording replay could not send (see `recordingRules`: decoded header text
 * above U+00FF or with a line break, a 1xx, a 304 with a body), each with the field and why.
 * The path and query are taken from `request.url` as written (encoding kept).
 *
 * @example recordingsFromHar(JSON.parse(text) as Har, DEFAULT_POLICY).recordings
 */
export function recordingsFromHar(har: Har, policy: NormalisationPolicy): HarImport {
  const result: HarImport = { recordings: [], skipped: [], leaks: 0 };
  // Entries that cannot be read at all are skipped by their place in the file: `log.entries[3]`.
  const readable: Entry[] = [];
  (har.log?.entries ?? []).forEach((entry: unknown, index) => {
    const problem = entryProblem(entry);
    if (problem) result.skipped.push({ url: `log.entries[${index}]`, reason: problem });
    else readable.push(entry as Entry);
  });
  const entries = readable.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  for (const entry of entries) {
    const url = entry.request.url;
    const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(\?[^#]*)?/i.exec(url);
    const path = match?.[1] || '/';
    if (!operationOfPath(path)) {
      result.skipped.push({ url, reason: 'not one of the six /api/g1 operations' });
      continue;
    }
    if (entry.response.status <= 0) {
      result.skipped.push({ url, reason: 'the request got no response (status 0)' });
      continue;
    }
    const body = entryBody(entry);
    if (typeof body === 'string') {
      result.skipped.push({ url, reason: body });
      continue;
    }
    const started = Date.parse(entry.startedDateTime);
    let built: ReturnType<typeof buildRecording>;
    try {
      built = buildRecording(
        {
          method: entry.request.method,
          path,
          query: splitQuery(match?.[2] ?? ''),
          requestHeaders: harHeaders(entry.request.headers),
          status: entry.response.status,
          responseHeaders: harHeaders(entry.response.headers),
          body,
          recordedAt: new Date(Number.isNaN(started) ? 0 : started).toISOString(),
        },
        policy,
      );
    } catch (error) {
      if (!(error instanceof RedactionRefusedError || error instanceof HarHeaderError)) throw error;
      result.skipped.push({ url, reason: errorText(error) });
      continue;
    }
    // What replay could not send (a header the wire cannot carry, a 1xx, a 304 with a body) is never written.
    const checked = recordingRules(built.recording, url);
    if (!checked.ok) {
      result.skipped.push({ url, reason: checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ') });
      continue;
    }
    const latency = harLatency(entry.timings);
    if (latency) built.recording.response.latency = latency;
    result.recordings.push(built.recording);
    result.leaks += built.leaks;
  }
  return result;
}

/** Options of {@link harFromRecordings}. */
export interface HarOptions {
  /** Origin of the request URLs, e.g. `http://127.0.0.1:8787`; default `http://localhost:8787`. */
  baseUrl?: string;
  /** `log.creator.version`; default this package's version. */
  version?: string;
  /** `serverIPAddress` of every entry (the server that answered); default the host of `baseUrl` when it is an IP address (`localhost` is 127.0.0.1), else none. */
  serverIPAddress?: string;
  /** Title of the HAR's one page (DevTools and Charles group the entries under it); default `mockvideo`. */
  pageTitle?: string;
}

/** The IP address a URL's host names: the literal itself, `127.0.0.1` for localhost, else undefined. */
function ipOfHost(base: string): string | undefined {
  let host: string;
  try {
    host = new URL(base).hostname;
  } catch {
    return undefined;
  }
  if (host === 'localhost') return '127.0.0.1';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return undefined;
}

/** The one page every entry of a mockvideo HAR belongs to. */
const PAGE_ID = 'page_1';

/**
 * A HAR 1.2 log of recordings (in the order given), with URLs on `baseUrl` (default
 * `http://localhost:8787`), so it opens in Chrome DevTools and Charles and imports back unchanged:
 * `log.creator` names mockvideo and its version, `log.pages` holds one page that every entry
 * references (`pageref`), each entry is a `fetch` (`_resourceType`, as DevTools writes it) with
 * the `serverIPAddress` that answered when known. Bodies that are not UTF-8 are written base64
 * (`content.encoding: "base64"`). Times are milliseconds (HAR's unit).
 *
 * @example harFromRecordings(recordings, { baseUrl: 'http://127.0.0.1:8787' })
 */
export function harFromRecordings(recordings: readonly NamedRecording[], options: HarOptions = {}): Har {
  const base = (options.baseUrl ?? 'http://localhost:8787').replace(/\/+$/, '');
  const serverIPAddress = options.serverIPAddress ?? ipOfHost(base);
  const entries: Entry[] = recordings.map(({ recording }) => {
    const { request, response } = recording;
    const search = request.query.map(([k, v]) => `${k}=${v}`).join('&');
    const size = recordedBodyBytes(response).length;
    const headers = (record: Record<string, string>): Header[] =>
      Object.entries(record).map(([name, value]) => ({ name, value }));
    const mimeType = response.headers['content-type'] ?? 'application/octet-stream';
    const { headersMs = 0, lastByteMs = 0 } = response.latency ?? {};
    return {
      pageref: PAGE_ID,
      startedDateTime: recording.recordedAt,
      time: lastByteMs,
      request: {
        method: request.method,
        url: `${base}${request.path}${search ? `?${search}` : ''}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headers(request.headers),
        queryString: request.query.map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: response.status,
        statusText: statuses.message[response.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headers(response.headers),
        content:
          response.bodyBase64 !== undefined
            ? { size, mimeType, text: response.bodyBase64, encoding: 'base64' }
            : { size, mimeType, text: response.body ?? '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: size,
      },
      cache: {},
      timings: { send: 0, wait: headersMs, receive: Math.round((lastByteMs - headersMs) * 10) / 10 },
      ...(serverIPAddress ? { serverIPAddress } : {}),
      _resourceType: 'fetch',
    };
  });
  const started = entries.map((entry) => entry.startedDateTime).sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  return {
    log: {
      version: '1.2',
      creator: { name: 'mockvideo', version: options.version ?? PACKAGE_VERSION },
      pages: [
        {
          startedDateTime: started ?? new Date(0).toISOString(),
          id: PAGE_ID,
          title: options.pageTitle ?? 'mockvideo',
          pageTimings: {},
        },
      ],
      entries,
    },
  };
}
