import type { Entry, Har, Header } from 'har-format';
import { operationOfPath } from '../contract/core.js';
import { harLatency } from '../latency/latency.js';
import { bodyBytes, buildRecording, fromBase64, splitQuery, type NamedRecording, type NormalisationPolicy, type Recording } from '../normalise/index.js';

/** What {@link recordingsFromHar} made of a HAR: recordings in `startedDateTime` order, and the entries it skipped with why. */
export interface HarImport {
  recordings: Recording[];
  skipped: Array<{ url: string; reason: string }>;
  /** Leaked raw values the redaction scan replaced. */
  leaks: number;
}

function headerRecord(headers: readonly Header[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of headers ?? []) {
    if (name.startsWith(':')) continue; // HTTP/2 pseudo-headers of Chrome's export
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}

function entryBody(entry: Entry): Uint8Array | string {
  const { text, encoding } = entry.response.content;
  if (text === undefined) return 'the response body was not saved in the HAR (export it with content)';
  return encoding === 'base64' ? fromBase64(text) : new TextEncoder().encode(text);
}

/**
 * Turns a HAR 1.2 log (from Chrome DevTools, Playwright's `recordHar`, Charles or mitmproxy) into
 * recordings of the six `/api/g1` operations, redacted under `policy`; other entries are skipped.
 * The path and query are taken from `request.url` as written (encoding kept).
 *
 * @example recordingsFromHar(JSON.parse(text) as Har, DEFAULT_POLICY).recordings
 */
export function recordingsFromHar(har: Har, policy: NormalisationPolicy): HarImport {
  const result: HarImport = { recordings: [], skipped: [], leaks: 0 };
  const entries = [...(har.log?.entries ?? [])].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
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
    const { recording, leaks } = buildRecording(
      {
        method: entry.request.method,
        path,
        query: splitQuery(match?.[2] ?? ''),
        requestHeaders: headerRecord(entry.request.headers),
        status: entry.response.status,
        responseHeaders: headerRecord(entry.response.headers),
        body,
        recordedAt: new Date(Number.isNaN(started) ? 0 : started).toISOString(),
      },
      policy,
    );
    const latency = harLatency(entry.timings);
    if (latency) recording.response.latency = latency;
    result.recordings.push(recording);
    result.leaks += leaks;
  }
  return result;
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/**
 * A HAR 1.2 log of recordings (in the order given), with URLs on `baseUrl` (default
 * `http://localhost:8787`), so it opens in Chrome DevTools and imports back unchanged.
 * Bodies that are not UTF-8 are written base64 (`content.encoding: "base64"`).
 *
 * @example harFromRecordings(recordings, { version: '0.1.0' })
 */
export function harFromRecordings(recordings: readonly NamedRecording[], options: { baseUrl?: string; version?: string } = {}): Har {
  const base = (options.baseUrl ?? 'http://localhost:8787').replace(/\/+$/, '');
  const entries: Entry[] = recordings.map(({ recording }) => {
    const { request, response } = recording;
    const search = request.query.map(([k, v]) => `${k}=${v}`).join('&');
    const size = bodyBytes(response).length;
    const headers = (record: Record<string, string>): Header[] => Object.entries(record).map(([name, value]) => ({ name, value }));
    const mimeType = response.headers['content-type'] ?? 'application/octet-stream';
    const { headersMs = 0, lastByteMs = 0 } = response.latency ?? {};
    return {
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
        statusText: STATUS_TEXT[response.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headers(response.headers),
        content: response.bodyBase64 !== undefined ? { size, mimeType, text: response.bodyBase64, encoding: 'base64' } : { size, mimeType, text: response.body ?? '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: size,
      },
      cache: {},
      timings: { send: 0, wait: headersMs, receive: Math.round((lastByteMs - headersMs) * 10) / 10 },
    };
  });
  return { log: { version: '1.2', creator: { name: 'mockvideo', version: options.version ?? '0.0.0' }, entries } };
}
