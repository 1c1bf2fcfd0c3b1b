import { harUrl, type AnalyticsEntry, type DeviceSummary, type JournalEntry, type StartUpVerdict } from './api.js';
import { byId, fill, h, keepingFocus } from './dom.js';
import { clockTime, deviceLabel, duration, matchOf, recordKind, statusClass, stepOf } from './format.js';
import type { DashboardState } from './state.js';

/** The most bursts drawn per device lane (the newest). */
const MAX_BURSTS = 12;

/** The shortest time axis, in milliseconds, so that a burst of 2-ms answers does not fill the width with one bar. */
const MIN_SPAN_MS = 40;

/** One thing on a burst's time axis: a request (arrival to last byte) or an analytics record (one instant). */
type Item =
  { kind: 'request'; at: number; entry: JournalEntry } | { kind: 'analytics'; at: number; record: AnalyticsEntry };

/** Where on the axis, in percent of its width. */
const percent = (ms: number, span: number) => `${Math.min(100, Math.max(0, (ms / span) * 100)).toFixed(2)}%`;

/**
 * The start-up timeline: one lane per device (only the chosen one when a device is chosen); in it
 * each burst of requests (a start-up, or a recommendation view) on its own time axis, a bar per
 * request from arrival to last byte coloured by status and fault, findings marked, the analytics
 * records the device sent at that time as diamonds, verify's verdict and a HAR link beside it.
 * A bar is a button: it opens the request.
 */
export class Timeline {
  readonly #root = byId('lanes');
  readonly #state: DashboardState;
  readonly #open: (id: number) => void;

  constructor(state: DashboardState, open: (id: number) => void) {
    this.#state = state;
    this.#open = open;
    state.subscribe(() => keepingFocus(this.#root, () => this.#draw()));
  }

  #draw(): void {
    const state = this.#state;
    const devices = state.devices.filter((d) => state.selected === null || d.sdevid === state.selected);
    byId('lanes-empty').hidden = devices.length > 0;
    fill(this.#root, ...devices.map((device, i) => this.#lane(device, i)));
  }

  #lane(device: DeviceSummary, index: number): HTMLElement {
    const state = this.#state;
    const bursts = state.startUps.filter((b) => b.device === device.sdevid);
    // Each analytics record of this device goes to the latest burst that began before it (else the first).
    const records = new Map<StartUpVerdict, AnalyticsEntry[]>();
    for (const record of state.analytics) {
      if (state.deviceOfRecord(record.record) !== device.sdevid || !bursts.length) continue;
      const at = Date.parse(record.time);
      const burst = bursts.filter((b) => b.start <= at).at(-1) ?? bursts[0]!;
      records.set(burst, [...(records.get(burst) ?? []), record]);
    }
    const headingId = `lane-${index}`;
    const facts = [
      device.model,
      device.andver && `Android API ${device.andver}`,
      device.appver && `app ${device.appver}`,
    ]
      .filter(Boolean)
      .join(' · ');
    return h(
      'section',
      { class: 'lane', 'data-device': device.sdevid, 'aria-labelledby': headingId },
      h('h3', { id: headingId }, deviceLabel(device), ' ', h('span', { class: 'muted' }, facts)),
      ...bursts
        .slice(-MAX_BURSTS)
        .reverse()
        .map((burst) => this.#burst(burst, records.get(burst) ?? [])),
      bursts.length > MAX_BURSTS
        ? h(
            'p',
            { class: 'muted' },
            `${bursts.length - MAX_BURSTS} earlier bursts are not drawn: they are in the requests below and in the device's HAR.`,
          )
        : null,
    );
  }

  #burst(burst: StartUpVerdict, records: AnalyticsEntry[]): HTMLElement {
    const entries = burst.ids
      .map((id) => this.#state.entries.get(id))
      .filter((e): e is JournalEntry => e !== undefined);
    const items: Item[] = [
      ...entries.map((entry) => ({ kind: 'request' as const, at: Date.parse(entry.time), entry })),
      ...records.map((record) => ({ kind: 'analytics' as const, at: Date.parse(record.time), record })),
    ].sort((a, b) => a.at - b.at);
    const start = Math.min(burst.start, ...items.map((i) => i.at));
    const end = Math.max(burst.end, ...items.map((i) => i.at));
    const span = Math.max(end - start, MIN_SPAN_MS);
    const failed = burst.rules.filter((r) => !r.ok);
    const what = burst.startUp ? 'Start-up' : 'Recommendations';
    const title = `${what} at ${clockTime(new Date(burst.start).toISOString())}`;
    return h(
      'article',
      { class: `burst ${burst.ok ? 'ok' : 'bad'}`, 'aria-label': `${title}, verify ${burst.ok ? 'holds' : 'fails'}` },
      h(
        'div',
        { class: 'burst-head' },
        h(
          'span',
          { class: `verdict ${burst.ok ? 'ok' : 'bad'}` },
          burst.ok
            ? '✓ verify holds'
            : `✗ ${failed.length} rule${failed.length === 1 ? '' : 's'} fail${failed.length === 1 ? 's' : ''}`,
        ),
        h('strong', {}, title),
        h(
          'span',
          { class: 'muted' },
          `${burst.ids.length} request${burst.ids.length === 1 ? '' : 's'} · ${duration(burst.end - burst.start)}`,
        ),
        h(
          'a',
          {
            class: 'button secondary small',
            href: harUrl({ ids: burst.ids }),
            download: `mockvideo-start-up-${burst.ids[0]}.har`,
            'aria-label': `HAR of the ${what.toLowerCase()} at ${clockTime(new Date(burst.start).toISOString())}`,
          },
          'HAR',
        ),
      ),
      failed.length
        ? h('ul', { class: 'burst-rules' }, ...failed.map((r) => h('li', {}, h('code', {}, r.rule), ' ', r.message)))
        : null,
      burst.suspect
        ? h(
            'p',
            { class: 'suspect' },
            'Suspect: the generated answer ',
            h('code', {}, burst.suspect),
            ' came last before the app broke off. Replay it: ',
            h('code', {}, `mockvideo serve --fuzz-case ${burst.suspect}`),
          )
        : null,
      h(
        'div',
        { class: 'axis', 'aria-hidden': 'true' },
        h('span', {}, '0'),
        h('span', {}, duration(span / 2)),
        h('span', {}, duration(span)),
      ),
      h(
        'ol',
        { class: 'bars' },
        ...items.map((item) =>
          item.kind === 'request'
            ? this.#bar(item.entry, item.at - start, span)
            : this.#record(item.record, item.at - start, span),
        ),
      ),
    );
  }

  #bar(entry: JournalEntry, offset: number, span: number): HTMLElement {
    const bar = h('span', { class: 'bar' });
    bar.style.left = percent(offset, span);
    bar.style.width = percent(entry.durationMs, span);
    const findings = entry.findings.length;
    const match = matchOf(entry, this.#state.mode);
    const step = stepOf(entry);
    const status = entry.status === 0 ? 'none' : String(entry.status);
    const label = [
      `Request ${entry.id}`,
      entry.operation,
      `status ${status}`,
      entry.fault && `fault ${entry.fault}`,
      findings && `${findings} finding${findings === 1 ? '' : 's'}`,
      match && `match ${match}`,
      entry.recording,
      step && `step ${step}`,
      entry.fuzz && `case ${entry.fuzz}`,
      `+${duration(offset)}`,
      `took ${duration(entry.durationMs)}`,
    ]
      .filter(Boolean)
      .join(', ');
    return h(
      'li',
      {
        class: [
          'bar-row',
          `status-${statusClass(entry.status)}`,
          entry.fault ? 'fault' : '',
          findings ? 'with-findings' : '',
        ]
          .join(' ')
          .trim(),
      },
      h(
        'button',
        {
          type: 'button',
          class: 'bar-button',
          'data-key': `bar-${entry.id}`,
          'aria-label': label,
          title: label,
          onclick: () => this.#open(entry.id),
        },
        h(
          'span',
          { class: 'bar-label' },
          h('span', { class: 'op' }, entry.operation),
          ' ',
          h('span', { class: `status ${statusClass(entry.status)}` }, status),
          entry.fault && h('span', { class: 'badge fault' }, `⚡ ${entry.fault}`),
          findings ? h('span', { class: 'badge warn' }, `⚠ ${findings}`) : null,
          // In replay, what was not an exact match stands out.
          match && match !== 'exact' ? h('span', { class: `match ${match}` }, match) : null,
        ),
        h('span', { class: 'track' }, bar),
        h('span', { class: 'bar-time' }, duration(entry.durationMs)),
      ),
    );
  }

  #record(record: AnalyticsEntry, offset: number, span: number): HTMLElement {
    const mark = h('span', { class: 'mark' });
    mark.style.left = percent(offset, span);
    const findings = record.findings.length;
    const label = `Analytics record ${record.id}: ${recordKind(record.record)}, ${findings ? `${findings} finding${findings === 1 ? '' : 's'}` : 'no findings'}, +${duration(offset)}`;
    return h(
      'li',
      {
        class: `bar-row analytics${findings ? ' with-findings' : ''}`,
        title: record.findings.map((f) => f.message).join('\n') || undefined,
      },
      h(
        'span',
        { class: 'bar-label' },
        h('span', { class: 'op' }, `◆ ${recordKind(record.record)}`),
        findings ? h('span', { class: 'badge warn' }, `⚠ ${findings}`) : null,
        h('span', { class: 'visually-hidden' }, label),
      ),
      h('span', { class: 'track' }, mark),
      h('span', { class: 'bar-time' }, `+${duration(offset)}`),
    );
  }
}
