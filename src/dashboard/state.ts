import {
  admin,
  messageOf,
  type AnalyticsEntry,
  type ScenarioSummary,
  type DeviceSummary,
  type JournalEntry,
  type StartUpVerdict,
} from './api.js';
import { byId } from './dom.js';
import { deviceLabel, deviceOf, recordField } from './format.js';

/** How long the page waits after a change before it reads the devices and start-ups again, in milliseconds. */
const REFRESH_MS = 250;

/**
 * The most journal entries the page keeps (the newest; the server's journal keeps 1,000 by
 * default): a tab left open all day holds no more. A request's details are read when it is opened.
 */
export const MAX_ENTRIES = 1000;

/** How often the page reads the analytics sink in `serve` (it has no event of its own), in milliseconds. */
const ANALYTICS_POLL_MS = 2000;

/**
 * What the page shows, in one place: the newest {@link MAX_ENTRIES} journal entries (from the event stream), the devices and
 * start-ups with verify's verdicts (read from the admin API after each change), the analytics
 * records, and the device chosen to filter everything by. Views subscribe and draw from it; a
 * burst of changes is drawn once.
 */
export class DashboardState {
  mode = 'serve';
  readonly entries = new Map<number, JournalEntry>();
  devices: DeviceSummary[] = [];
  startUps: StartUpVerdict[] = [];
  analytics: AnalyticsEntry[] = [];
  /** The scenarios a device can be given (`GET /scenarios`); empty where no scenario answers (`record`, `replay` without a fallback). */
  scenarios: ScenarioSummary[] = [];
  /** The `_sdevid` everything is filtered by, or `null` for every device. */
  selected: string | null = null;
  /** The request whose detail is open, or `undefined`. */
  opened: number | undefined;
  readonly #views = new Set<(state: DashboardState) => void>();
  #drawTimer: ReturnType<typeof setTimeout> | undefined;
  #refreshTimer: ReturnType<typeof setTimeout> | undefined;

  /** Calls `view` to draw after every change (batched). */
  subscribe(view: (state: DashboardState) => void): void {
    this.#views.add(view);
  }

  /** Draws every view soon, once for a burst of changes. */
  changed(): void {
    if (this.#drawTimer !== undefined) return;
    this.#drawTimer = setTimeout(() => {
      this.#drawTimer = undefined;
      for (const view of this.#views) view(this);
    }, 30);
  }

  /** Takes the whole journal (at start and after a reconnect), keeping entries that arrived live after it was read. */
  replaceEntries(entries: readonly JournalEntry[]): void {
    const newest = entries.reduce((max, e) => Math.max(max, e.id), 0);
    const later = [...this.entries.values()].filter((e) => e.id > newest);
    this.entries.clear();
    for (const entry of [...entries, ...later].slice(-MAX_ENTRIES)) this.entries.set(entry.id, entry);
    this.refreshSoon();
    this.changed();
  }

  /** Adds one live entry; false when it was already there. */
  addEntry(entry: JournalEntry): boolean {
    if (this.entries.has(entry.id)) return false;
    this.entries.set(entry.id, entry);
    // Entries come in id order, so the first key is the oldest.
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.refreshSoon();
    this.changed();
    return true;
  }

  /** Forgets every entry (the journal was cleared). */
  clearEntries(): void {
    this.entries.clear();
    this.devices = [];
    this.startUps = [];
    this.changed();
  }

  /** Filters everything by device `sdevid` (`null`: every device). */
  select(sdevid: string | null): void {
    this.selected = sdevid;
    this.changed();
  }

  /** The entries shown: the chosen device's, or all; newest first. */
  visibleEntries(): JournalEntry[] {
    return [...this.entries.values()]
      .filter((e) => this.selected === null || deviceOf(e) === this.selected)
      .sort((a, b) => b.id - a.id);
  }

  /** The device summary of `sdevid`, if it is in the journal. */
  device(sdevid: string): DeviceSummary | undefined {
    return this.devices.find((d) => d.sdevid === sdevid);
  }

  /** The name people see for device `sdevid` (see `deviceLabel`), known to the journal or not. */
  label(sdevid: string): string {
    return deviceLabel(this.device(sdevid) ?? { sdevid });
  }

  /** The device an analytics record came from: the one whose requests sent its `_anoyid`; `null` when none did. */
  deviceOfRecord(record: unknown): string | null {
    const anoyid = recordField(record, '_anoyid');
    return (anoyid && this.devices.find((d) => d.anoyids.includes(anoyid))?.sdevid) || null;
  }

  /** The analytics records shown: the chosen device's, or all; newest first. */
  visibleAnalytics(): AnalyticsEntry[] {
    return this.analytics
      .filter((a) => this.selected === null || this.deviceOfRecord(a.record) === this.selected)
      .sort((a, b) => b.id - a.id);
  }

  /** Reads the devices, the start-ups and (in `serve`) the analytics records again soon. */
  refreshSoon(): void {
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = setTimeout(() => void this.refresh(), REFRESH_MS);
  }

  async refresh(): Promise<void> {
    try {
      const [devices, startUps] = await Promise.all([admin.devices(), admin.startUps()]);
      this.devices = devices.devices;
      this.startUps = startUps.startUps;
      if (this.mode === 'serve') this.analytics = (await admin.analytics()).records;
      this.changed();
    } catch (error) {
      byId('page-status').textContent = `Could not read the devices: ${messageOf(error)}`;
    }
  }

  /** In `serve`, reads the analytics sink every 2 s and draws when a record came or went. */
  pollAnalytics(): void {
    if (this.mode !== 'serve') return;
    setInterval(() => {
      admin.analytics().then(
        ({ records }) => {
          const last = (list: AnalyticsEntry[]) => `${list.length}:${list.at(-1)?.id ?? 0}`;
          if (last(records) === last(this.analytics)) return;
          this.analytics = records;
          this.changed();
        },
        () => undefined,
      );
    }, ANALYTICS_POLL_MS);
  }
}
