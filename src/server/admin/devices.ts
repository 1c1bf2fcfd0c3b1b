import type { PlannedFault } from '../../faults/board.js';
import type { JournalEntry } from '../../journal/index.js';

/** The device of requests that carry no `_sdevid` (the same name `verify` uses). */
const NO_DEVICE = '(no _sdevid)';

/** The longest device name kept, in characters. */
const MAX_DEVICE_NAME = 60;

/** The most device names kept; naming one more forgets the name given longest ago. */
const MAX_DEVICE_NAMES = 1000;

/** What steers one device: the scenario it answers from and the faults aimed at it (see `steeringOf`). */
export interface DeviceSteering {
  /**
   * The scenario its requests answer from when they pick none themselves (no `/scenarios/NAME`
   * prefix, no `x-mockvideo-scenario` header): its own, else the server's; `null` where no scenario
   * answers (`record`, `replay` without `--fallback-scenario`).
   */
  scenario: string | null;
  /** True when the device has a scenario of its own (`PUT /devices/SDEVID/scenario`, `--device-scenario`). */
  steered: boolean;
  /** The planned faults aimed at it (`"device"` in `POST /faults`, `--fault …@SDEVID`), as `GET /faults` lists them. */
  aimedFaults: PlannedFault[];
}

/**
 * One device seen in the journal (or steered before its first request), for the dashboard's device list. `model`, `andver` and `appver`
 * are the last values its requests sent (`_model`, `_andver`, `_appver`, decoded), `null` when none
 * did; `anoyids` are the `_anoyid` values it sent (they link its analytics records to it). Times
 * are ISO 8601 arrival times, `null` for a device steered that has not called yet.
 */
export interface DeviceSummary extends DeviceSteering {
  /** Its `_sdevid`; for a device steered by another name (`anoyid:…`, `address:…`), that name. */
  sdevid: string;
  /** The readable name given from the dashboard, or `null`. */
  name: string | null;
  model: string | null;
  andver: string | null;
  appver: string | null;
  anoyids: string[];
  firstSeen: string | null;
  lastSeen: string | null;
  requests: number;
  /** Requests with at least one contract finding. */
  withFindings: number;
  /** Contract findings over all its requests. */
  findings: number;
  /** Requests that got a fault. */
  faults: number;
}

/**
 * The readable names QA gives devices from the dashboard, by `_sdevid`, kept while the server runs
 * (never written to disk), at most {@link MAX_DEVICE_NAMES}. `version` counts the changes.
 */
export class DeviceNames {
  readonly #names = new Map<string, string>();
  /** How many times a name was set or removed (the event stream sends `devices` when it moves). */
  version = 0;

  /** The name of `sdevid`, or `null`. */
  get(sdevid: string): string | null {
    return this.#names.get(sdevid) ?? null;
  }

  /**
   * Names `sdevid` (trimmed, at most {@link MAX_DEVICE_NAME} characters); an empty name removes it.
   * Returns the name kept, or `null` when removed.
   */
  set(sdevid: string, name: string): string | null {
    const kept = name.trim().slice(0, MAX_DEVICE_NAME);
    this.#names.delete(sdevid); // a renamed device becomes the newest
    if (kept) this.#names.set(sdevid, kept);
    while (this.#names.size > MAX_DEVICE_NAMES) this.#names.delete(this.#names.keys().next().value!);
    this.version++;
    return kept || null;
  }
}

/**
 * How a terminal line (`ServerContext.onAdminChange`) names a device: `device ` and the first 12
 * characters of its `_sdevid` (or other name), `…` after, written as inside a JSON string so that a
 * control character in it cannot steer the terminal.
 *
 * @example deviceInLine('a1'.repeat(32)) // 'device a1a1a1a1a1a1…'
 */
export function deviceInLine(sdevid: string): string {
  return `device ${JSON.stringify(sdevid.slice(0, 12)).slice(1, -1)}${sdevid.length > 12 ? '…' : ''}`;
}

/** Where {@link deviceSummaries} reads what steers each device: by `_sdevid` (or other name), and the devices steered. */
export interface SteeringSource {
  /** The steering of the device `sdevid` names (`(no _sdevid)`: the requests without one, which only the server's scenario answers). */
  of(sdevid: string): DeviceSteering;
  /** The devices steered or aimed at, as `sdevid` names them: listed even before their first request. */
  devices(): readonly string[];
}

/**
 * The devices of `entries` (the journal, oldest first), in order of first appearance, then the
 * devices `steering` steers that have not called yet; each with its steering.
 */
export function deviceSummaries(
  entries: readonly JournalEntry[],
  names: DeviceNames,
  steering: SteeringSource,
): DeviceSummary[] {
  const devices = new Map<string, DeviceSummary>();
  const summary = (sdevid: string, time: string | null): DeviceSummary => ({
    sdevid,
    name: names.get(sdevid),
    model: null,
    andver: null,
    appver: null,
    anoyids: [],
    firstSeen: time,
    lastSeen: time,
    requests: 0,
    withFindings: 0,
    findings: 0,
    faults: 0,
    ...steering.of(sdevid),
  });
  for (const entry of entries) {
    const sdevid = entry.query._sdevid?.[0] ?? NO_DEVICE;
    let device = devices.get(sdevid);
    if (!device) devices.set(sdevid, (device = summary(sdevid, entry.time)));
    if (entry.time < device.firstSeen!) device.firstSeen = entry.time;
    if (entry.time > device.lastSeen!) device.lastSeen = entry.time;
    device.model = entry.query._model?.[0] ?? device.model;
    device.andver = entry.query._andver?.[0] ?? device.andver;
    device.appver = entry.query._appver?.[0] ?? device.appver;
    const anoyid = entry.query._anoyid?.[0];
    if (anoyid && !device.anoyids.includes(anoyid)) device.anoyids.push(anoyid);
    device.requests++;
    device.findings += entry.findings.length;
    if (entry.findings.length) device.withFindings++;
    if (entry.fault) device.faults++;
  }
  for (const sdevid of steering.devices()) if (!devices.has(sdevid)) devices.set(sdevid, summary(sdevid, null));
  return [...devices.values()];
}
