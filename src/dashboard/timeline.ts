import { html, nothing, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { ref } from 'lit-html/directives/ref.js';
import {
  bundleUrl,
  harUrl,
  type AnalyticsEntry,
  type DeviceSummary,
  type JournalEntry,
  type StartUpVerdict,
} from './api.js';
import { byId } from './dom.js';
import { clockTime, count, deviceLabel, duration, matchOf, recordKind, statusClass } from './format.js';
import type { DashboardState } from './state.js';

/** The most bursts drawn per device lane (the newest). */
const MAX_BURSTS = 12;

/** The shortest time axis, in milliseconds, so that a burst of 2-ms answers does not fill the width with one bar. */
const MIN_SPAN_MS = 40;

/** Where on the axis, in percent of its width. */
const percent = (ms: number, span: number) => `${Math.min(100, Math.max(0, (ms / span) * 100)).toFixed(2)}%`;

/** Sets an element's place on the axis through the CSSOM (the page's CSP refuses a `style` attribute). */
const place = (style: { left: string; width?: string }) =>
  ref((e) => e && Object.assign((e as HTMLElement).style, style));

/**
 * Draws the start-up timeline: one lane per device (only the chosen one when a device is chosen); in it
 * each burst of requests (a start-up, or a recommendation view) on its own time axis, a bar per
 * request from arrival to last byte coloured by status and fault, findings marked, the analytics
 * records the device sent at that time as diamonds, verify's verdict, its HAR and its bundle beside it.
 * A bar is a button that opens the request (`data-open`, see `main.ts`).
 */
export function drawTimeline(state: DashboardState): void {
  const devices = state.devices.filter((d) => state.selected === null || d.sdevid === state.selected);
  byId('lanes-empty').hidden = devices.length > 0;
  render(
    repeat(
      devices,
      (d) => d.sdevid,
      (device, i) => lane(state, device, i),
    ),
    byId('lanes'),
  );
}

function lane(state: DashboardState, device: DeviceSummary, index: number) {
  const bursts = state.startUps.filter((b) => b.device === device.sdevid);
  // Each analytics record of this device goes to the latest burst that began before it (else the first).
  const records = new Map<StartUpVerdict, AnalyticsEntry[]>();
  for (const record of state.analytics) {
    if (state.deviceOfRecord(record.record) !== device.sdevid || !bursts.length) continue;
    const at = Date.parse(record.time);
    const burst = bursts.filter((b) => b.start <= at).at(-1) ?? bursts[0]!;
    records.set(burst, [...(records.get(burst) ?? []), record]);
  }
  const live = device.aimedFaults.filter((planned) => planned.remaining !== 0).length;
  const facts = [
    device.model,
    device.andver && `Android API ${device.andver}`,
    device.appver && `app ${device.appver}`,
    // What steers it, when it is its own: a scenario, faults aimed at it with requests left.
    device.steered && `scenario ${device.scenario}`,
    live > 0 && count(live, 'aimed fault'),
  ];
  return html`<section class="lane" data-device=${device.sdevid} aria-labelledby="lane-${index}">
    <h3 id="lane-${index}">${deviceLabel(device)} <span class="muted">${facts.filter(Boolean).join(' · ')}</span></h3>
    ${repeat(
      bursts.slice(-MAX_BURSTS).reverse(),
      (burst) => burst.ids[0],
      (burst) => burstView(state, burst, records.get(burst) ?? []),
    )}
    ${
      bursts.length > MAX_BURSTS
        ? html`<p class="muted">${bursts.length - MAX_BURSTS} earlier bursts are not drawn: they are in the requests below and in the device's HAR.</p>`
        : nothing
    }
  </section>`;
}

function burstView(state: DashboardState, burst: StartUpVerdict, records: AnalyticsEntry[]) {
  const entries = burst.ids.map((id) => state.entries.get(id)).filter((e): e is JournalEntry => e !== undefined);
  const times = [...entries, ...records].map((item) => Date.parse(item.time));
  const start = Math.min(burst.start, ...times);
  const span = Math.max(Math.max(burst.end, ...times) - start, MIN_SPAN_MS);
  // Requests (arrival to last byte) and analytics records (one instant) on one time axis, in time order.
  const offset = (item: { time: string }) => Date.parse(item.time) - start;
  const marks = [
    ...entries.map((entry) => [offset(entry), bar(entry, offset(entry), span, state.mode)] as const),
    ...records.map((record) => [offset(record), recordMark(record, offset(record), span)] as const),
  ].sort(([a], [b]) => a - b);
  const failed = burst.rules.filter((r) => !r.ok);
  const what = burst.startUp ? 'Start-up' : 'Recommendations';
  const at = clockTime(new Date(burst.start).toISOString());
  const verdict = burst.ok ? 'ok' : 'bad';
  return html`<article class="burst ${verdict}" aria-label="${what} at ${at}, verify ${burst.ok ? 'holds' : 'fails'}">
    <div class="burst-head">
      <span class="verdict ${verdict}">${
        burst.ok ? '✓ verify holds' : `✗ ${count(failed.length, 'rule')} fail${failed.length === 1 ? 's' : ''}`
      }</span>
      <strong>${what} at ${at}</strong>
      <span class="muted">${count(burst.ids.length, 'request')} · ${duration(burst.end - burst.start)}</span>
      <a
        class="button secondary small"
        href=${harUrl({ ids: burst.ids })}
        download="mockvideo-start-up-${burst.ids[0]}.har"
        aria-label="HAR of the ${what.toLowerCase()} at ${at}"
      >HAR</a>
      <a
        class="button secondary small"
        href=${bundleUrl(burst.id)}
        download="mockvideo-bundle-${burst.id}.json"
        title="Requests, exact answers, faults, scenario, clock and verdict in one file: mockvideo replay FILE, or bundleHandlers in a test"
        aria-label="Download the bundle of the ${what.toLowerCase()} at ${at}"
      >Download bundle</a>
    </div>
    ${
      failed.length
        ? html`<ul class="burst-rules">${failed.map((r) => html`<li><code>${r.rule}</code> ${r.message}</li>`)}</ul>`
        : nothing
    }
    ${
      burst.suspect
        ? html`<p class="suspect">
          Suspect: the generated answer <code>${burst.suspect}</code> came last before the app broke off. Replay it:
          <code>mockvideo serve --fuzz-case ${burst.suspect}</code>
        </p>`
        : nothing
    }
    <div class="axis" aria-hidden="true"><span>0</span><span>${duration(span / 2)}</span><span>${duration(span)}</span></div>
    <ol class="bars">
      ${marks.map(([, mark]) => mark)}
    </ol>
  </article>`;
}

function bar(entry: JournalEntry, offset: number, span: number, mode: string) {
  const findings = entry.findings.length;
  const match = matchOf(entry, mode);
  const status = entry.status === 0 ? 'none' : String(entry.status);
  const label = [
    `Request ${entry.id}`,
    entry.operation,
    `status ${status}`,
    entry.fault && `fault ${entry.fault}`,
    findings && count(findings, 'finding'),
    match && `match ${match}`,
    entry.recording,
    entry.step && `step ${entry.step}`,
    entry.fuzz && `case ${entry.fuzz}`,
    `+${duration(offset)}`,
    `took ${duration(entry.durationMs)}`,
  ]
    .filter(Boolean)
    .join(', ');
  const classes = `bar-row status-${statusClass(entry.status)}${entry.fault ? ' fault' : ''}${findings ? ' with-findings' : ''}`;
  return html`<li class=${classes}>
    <button type="button" class="bar-button" aria-label=${label} title=${label} data-open=${entry.id}>
      <span class="bar-label"><span class="op">${entry.operation}</span> <span class="status ${statusClass(entry.status)}">${status}</span>${
        entry.fault ? html`<span class="badge fault">⚡ ${entry.fault}</span>` : nothing
      }${findings ? html`<span class="badge warn">⚠ ${findings}</span>` : nothing}${
        // In replay, what was not an exact match stands out.
        match && match !== 'exact' ? html`<span class="match ${match}">${match}</span>` : nothing
      }</span>
      <span class="track"><span class="bar" ${place({ left: percent(offset, span), width: percent(entry.durationMs, span) })}></span></span>
      <span class="bar-time">${duration(entry.durationMs)}</span>
    </button>
  </li>`;
}

function recordMark(record: AnalyticsEntry, offset: number, span: number) {
  const findings = record.findings.length;
  const kind = recordKind(record.record);
  const label = `Analytics record ${record.id}: ${kind}, ${findings ? count(findings, 'finding') : 'no findings'}, +${duration(offset)}`;
  return html`<li
    class="bar-row analytics${findings ? ' with-findings' : ''}"
    title=${record.findings.map((f) => f.message).join('\n') || nothing}
  >
    <span class="bar-label"><span class="op">◆ ${kind}</span>${
      findings ? html`<span class="badge warn">⚠ ${findings}</span>` : nothing
    }<span class="visually-hidden">${label}</span></span>
    <span class="track"><span class="mark" ${place({ left: percent(offset, span) })}></span></span>
    <span class="bar-time">+${duration(offset)}</span>
  </li>`;
}
