import type { FaultKind, OperationName, PlannedFault } from './api.js';

/** The six operations with a name for people, in the contract's order (a `Record` so none is forgotten). */
export const OPERATION_LABELS: Readonly<Record<OperationName, string>> = {
  ad_config: 'Ad config',
  'meta/cp': 'Content providers',
  'meta/setting': 'Runtime settings',
  'meta/plugin': 'Plugins',
  'localplay/diversion': 'Diversion set',
  'localplay/recomm': 'Recommended videos',
};

/** The number a fault kind takes from the form, if any: its JSON field, a label and a default. */
export const FAULT_FIELDS: Readonly<Record<FaultKind, { field: 'ms' | 'status' | 'result'; label: string; value: number } | null>> = {
  delay: { field: 'ms', label: 'Delay (ms)', value: 2000 },
  status: { field: 'status', label: 'HTTP status', value: 503 },
  envelope: { field: 'result', label: 'Envelope result (not 1)', value: 0 },
  'malformed-json': null,
  empty: null,
  reset: null,
  hang: null,
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

/** The clock time of an ISO 8601 instant, to the millisecond: `14:03:07.215`. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
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
