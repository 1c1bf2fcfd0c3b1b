import type { DeviceUrl, FaultKind, Health, JournalEntry, PlannedFault } from './api.js';

/** The number a fault kind takes from the form, if any: its JSON field, a label and a default (a kind not here takes none). */
export const FAULT_FIELDS: Readonly<
  Partial<Record<FaultKind, { field: 'ms' | 'status' | 'result'; label: string; value: number }>>
> = {
  delay: { field: 'ms', label: 'Delay (ms)', value: 2000 },
  status: { field: 'status', label: 'HTTP status', value: 503 },
  envelope: { field: 'result', label: 'Envelope result (not 1)', value: 0 },
};

/** What a planned fault does, in a few words: `status 503`, `delay 400 ms`, `reset`. */
export function describeFault(planned: Pick<PlannedFault, 'fault'>): string {
  const { fault } = planned;
  switch (fault.kind) {
    case 'delay':
      return `delay ${typeof fault.ms === 'number' ? fault.ms : `${fault.ms[0]}–${fault.ms[1]}`} ms`;
    case 'status':
      return `status ${fault.status}`;
    case 'envelope':
      return `envelope result ${fault.result ?? 0}`;
    default:
      return fault.kind;
  }
}

/** The scenario a device answers from, for people: `"gallery" (its own)`, `"default" (the server's)`, or `no scenario`. */
export function scenarioOfDevice(device: { scenario: string | null; steered: boolean }): string {
  if (device.scenario === null) return 'no scenario';
  return `"${device.scenario}" (${device.steered ? 'its own' : "the server's"})`;
}

/** A fault aimed at a device, in a few words: `meta/cp: status 503, 2 left`, `meta/cp: reset, used up`, `every operation: reset`. */
export function describeAimedFault(planned: Pick<PlannedFault, 'fault' | 'operation' | 'remaining'>): string {
  const left = planned.remaining === null ? '' : planned.remaining === 0 ? ', used up' : `, ${planned.remaining} left`;
  return `${planned.operation ?? 'every operation'}: ${describeFault(planned)}${left}`;
}

/** `n` and a noun, plural unless `n` is 1: `1 request`, `3 findings`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The clock time of an ISO 8601 instant, to the millisecond: `14:03:07.215`. */
export function clockTime(iso: string): string {
  const time = {
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
  } as const;
  return new Date(iso).toLocaleTimeString('en-GB', time);
}

/** A response body for reading: JSON indented by two spaces, other text as is. */
export function prettyBody(text: string): string {
  if (text === '') return '(empty body)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The CSS class of an HTTP status: `ok` (2xx, 3xx), `bad` (4xx, 5xx) or `none` (0: no answer was sent). */
export function statusClass(status: number): 'ok' | 'bad' | 'none' {
  return status === 0 ? 'none' : status < 400 ? 'ok' : 'bad';
}

/** A duration in milliseconds for people: `0.8 ms`, `412 ms`, `2.3 s`. */
export function duration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A device for people: its given name, else the start of its `_sdevid` (`abf1bbe2…`). */
export function deviceLabel(device: { sdevid: string; name?: string | null }): string {
  if (device.name) return device.name;
  return device.sdevid.length > 16 ? `${device.sdevid.slice(0, 8)}…` : device.sdevid;
}

/** The `_sdevid` of a journal entry, or `(no _sdevid)` as the server names such requests. */
export function deviceOf(entry: Pick<JournalEntry, 'query'>): string {
  return entry.query._sdevid?.[0] ?? '(no _sdevid)';
}

/**
 * How a replayed answer was matched: the entry's `match` (`exact`, `nearest`, `fallback`,
 * `recorded`, `passthrough`), or `miss` for a replay request no recording answered (404 without a
 * match); `null` outside replay.
 */
export function matchOf(entry: Pick<JournalEntry, 'match' | 'status'>, mode: string): string | null {
  if (entry.match) return entry.match;
  return mode === 'replay' && entry.status === 404 ? 'miss' : null;
}

/** Request headers a `curl` command leaves out: curl sets them itself, or they describe the old connection. */
const CURL_SKIPS = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * A `curl` command that repeats a journaled request against `origin`: the path and the query pairs
 * exactly as sent (secrets stay redacted, so put the real token back to send it to the service),
 * with its headers except those curl sets itself.
 */
export function curlCommand(
  origin: string,
  request: {
    method: string;
    path: string;
    query: ReadonlyArray<readonly [string, string]>;
    headers: Readonly<Record<string, string>>;
  },
): string {
  const search = request.query.map(([name, value]) => `${name}=${value}`).join('&');
  const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`; // 'it'\''s'
  const parts = ['curl'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(`${origin}${request.path}${search ? `?${search}` : ''}`));
  for (const [name, value] of Object.entries(request.headers))
    if (!CURL_SKIPS.has(name.toLowerCase())) parts.push('-H', shellQuote(`${name}: ${value}`));
  return parts.join(' ');
}

/** A field of an analytics record, when it is a string. */
export function recordField(record: unknown, field: string): string | undefined {
  const value = typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What an analytics record is, in a word: its `type`, or its `event` in the later shape. */
export function recordKind(record: unknown): string {
  return recordField(record, 'type') ?? recordField(record, 'event') ?? '(unknown kind)';
}

/**
 * The URLs a device can use: those the server lists in `deviceUrls`, else this page's origin and
 * the Android emulator's `10.0.2.2` on the same port.
 */
export function deviceUrls(health: Health, location: Pick<Location, 'origin' | 'protocol' | 'port'>): DeviceUrl[] {
  if (health.deviceUrls?.length) return health.deviceUrls;
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  return [
    { label: 'This machine', url: location.origin },
    {
      label: 'Android emulator',
      url: `${location.protocol}//10.0.2.2:${port}`,
      hint: 'when mockvideo listens on 127.0.0.1 or 0.0.0.0',
    },
  ];
}

/** A detail's key for people: `recordingDir` → `Recording dir`. */
export function detailLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
