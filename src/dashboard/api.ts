import type { FaultKind } from '../faults/fault.js';
import type { PlannedFault } from '../faults/board.js';
import type { OperationName } from '../contract/operations.js';
import type { JournalEntry } from '../journal/journal.js';
import type { StartUpVerdict } from '../verify/start-ups.js';
import type { VerifyReport } from '../verify/verify.js';
import type { DeviceSummary } from '../server/admin/devices.js';
import type { AnalyticsEntry } from '../analytics/store.js';
import type { FuzzReport } from '../routes/fuzz.js';

export type {
  AnalyticsEntry,
  DeviceSummary,
  FaultKind,
  FuzzReport,
  JournalEntry,
  OperationName,
  PlannedFault,
  StartUpVerdict,
  VerifyReport,
};

/** Where the admin API lives (the page is served from it). */
export const ADMIN = '/__mockvideo';

/** One way a device reaches the server, as `GET /health` lists it (`DeviceUrl` of `src/server/listen/addresses.ts`, which needs Node). */
export interface DeviceUrl {
  label: string;
  url: string;
  hint?: string;
}

/** `GET /health`: the mode, the active scenario, and the mode's details (upstream, recording folder…). */
export interface Health {
  ok: boolean;
  mode: 'serve' | 'record' | 'replay';
  scenario: string;
  uptimeSeconds: number;
  /** The URLs a device can use, when the server knows them. */
  deviceUrls?: DeviceUrl[];
  /** True under `serve --fuzz` (then `GET /fuzz` reports the run). */
  fuzzing?: boolean;
  [detail: string]: unknown;
}

/** One scenario of `GET /scenarios`. */
export interface ScenarioSummary {
  name: string;
  description: string;
  extends: string | null;
}

/** `GET /requests/:id`: the entry, the request as sent (secrets redacted) and the response. */
export interface RequestDetail extends JournalEntry {
  request: { method: string; path: string; query: Array<[string, string]>; headers: Record<string, string> };
  response: { headers: Record<string, string>; body: string };
}

/** What `PUT` and `DELETE /devices/SDEVID/scenario` answer: the device and what steers it now. */
export interface DeviceSteeringAnswer {
  device: string;
  scenario: string | null;
  steered: boolean;
  aimedFaults: PlannedFault[];
}

/** A fault to plan through `POST /faults`. */
export interface FaultRequest {
  operation?: OperationName;
  /** Aimed at this device (`_sdevid`) only; default every device. */
  device?: string;
  kind: FaultKind;
  times: number;
  ms?: number;
  status?: number;
  result?: number;
}

/** The message of a failed call, for a status line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const TOKEN_KEY = 'mockvideo-admin-token';

/**
 * Sets the admin token sent with mutating calls (`Authorization: Bearer <token>`), needed when the
 * page is opened from another device and mockvideo runs with `--admin-token`. Kept for this tab only.
 */
export function setAdminToken(token: string): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

async function call<T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const token = method === 'GET' ? null : sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(`${ADMIN}${path}`, {
    method,
    // Mutations always say JSON: the admin guard refuses POST and PUT without it.
    headers: {
      accept: 'application/json',
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  let json: { error?: string };
  try {
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new Error(`${method} ${ADMIN}${path} answered ${response.status} with text that is not JSON.`);
  }
  if (!response.ok) {
    if (response.status === 403) window.dispatchEvent(new CustomEvent('mockvideo:forbidden'));
    throw new Error(json.error ?? `${method} ${ADMIN}${path} answered ${response.status}.`);
  }
  return json as T;
}

/** The admin API calls the page makes. Each rejects with an `Error` carrying the server's message (`error`). */
export const admin = {
  health: () => call<Health>('GET', '/health'),
  scenarios: () => call<{ active: string; scenarios: ScenarioSummary[] }>('GET', '/scenarios'),
  useScenario: (name: string) => call<{ name: string; description: string }>('PUT', '/scenario', { name }),
  /** The newest `limit` journal entries (the server answers at most 1,000 at once). */
  requests: (limit: number) => call<{ requests: JournalEntry[] }>('GET', `/requests?limit=${limit}`),
  request: (id: number) => call<RequestDetail>('GET', `/requests/${id}`),
  clearRequests: () => call<{ cleared: number }>('DELETE', '/requests'),
  /** The verify report of the whole journal, or of one device's requests (`sdevid`). */
  verify: (sdevid?: string | null) =>
    call<VerifyReport>('GET', sdevid ? `/verify?_sdevid=${encodeURIComponent(sdevid)}` : '/verify'),
  faults: () => call<{ faults: PlannedFault[]; kinds: FaultKind[] }>('GET', '/faults'),
  addFault: (fault: FaultRequest) => call<PlannedFault>('POST', '/faults', fault),
  clearFaults: () => call<{ cleared: number }>('DELETE', '/faults'),
  devices: () => call<{ devices: DeviceSummary[] }>('GET', '/devices'),
  nameDevice: (sdevid: string, name: string) =>
    call<{ sdevid: string; name: string | null }>('PUT', `/devices/${encodeURIComponent(sdevid)}/name`, { name }),
  /** Gives the device `sdevid` the scenario `name` (its requests answer from it instead of the server's). */
  steerDevice: (sdevid: string, name: string) =>
    call<DeviceSteeringAnswer>('PUT', `/devices/${encodeURIComponent(sdevid)}/scenario`, { name }),
  /** The device `sdevid` follows the server's scenario again. */
  unsteerDevice: (sdevid: string) =>
    call<DeviceSteeringAnswer>('DELETE', `/devices/${encodeURIComponent(sdevid)}/scenario`),
  startUps: () => call<{ startUps: StartUpVerdict[] }>('GET', '/start-ups'),
  /** The analytics sink's records (`serve` and `replay` have the sink; the page reads it in `serve`). */
  analytics: () => call<{ records: AnalyticsEntry[] }>('GET', '/analytics'),
  /** The fuzz run of `serve --fuzz` (404, so a rejection, when the server is not fuzzing). */
  fuzz: () => call<FuzzReport>('GET', '/fuzz'),
  /** Switches one edge class of the fuzz run on or off; answers the run. */
  setFuzzClass: (name: string, on: boolean) =>
    call<FuzzReport>('PUT', `/fuzz/classes/${encodeURIComponent(name)}`, { on }),
};

/**
 * The address of the HAR of some requests: one device's (`_sdevid`), or exactly the requests
 * `ids` (a start-up), or both.
 */
export function harUrl(filter: { sdevid?: string; ids?: readonly number[] }): string {
  const query = new URLSearchParams();
  if (filter.sdevid !== undefined) query.set('_sdevid', filter.sdevid);
  if (filter.ids) query.set('ids', filter.ids.join(','));
  const search = query.toString();
  return `${ADMIN}/requests.har${search ? `?${search}` : ''}`;
}

/** The address of a start-up's bundle (`id` of `GET /start-ups`): what "Download bundle" saves (see docs/bundles.md). */
export function bundleUrl(id: number): string {
  return `${ADMIN}/start-ups/${id}/bundle`;
}
