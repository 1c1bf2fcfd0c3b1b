import { html, nothing, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { JournalEntry } from './api.js';
import { announce, byId } from './dom.js';
import { clockTime, count, deviceOf, duration, matchOf, statusClass } from './format.js';
import type { DashboardState } from './state.js';

/** The most rows the page shows (the journal keeps more; the newest come first). */
const MAX_ROWS = 300;

/** Says a new request to screen readers. */
export function announceRequest(state: DashboardState, entry: JournalEntry): void {
  const findings = entry.findings.length ? `, ${count(entry.findings.length, 'contract finding')}` : '';
  announce(
    `Request ${entry.id} from ${state.label(deviceOf(entry))}: ${entry.operation}, status ${entry.status || 'none'}${entry.fault ? `, fault ${entry.fault}` : ''}${findings}`,
  );
}

/** Gives the focus to the row of request `id`, when it is shown. */
export function focusRequest(id: number): void {
  byId('requests-body').querySelector<HTMLButtonElement>(`tr[data-id="${id}"] button`)?.focus();
}

/**
 * Draws the request table (newest first, only the chosen device's when one is chosen), the open
 * request's row marked. Its columns follow the mode: in `replay` the match kind (exact, nearest,
 * fallback, miss) and the recording file that answered; elsewhere the scenario. A "Step" column
 * appears when the server reports sequence steps. On a narrow screen (app.css) each row is a card:
 * the operation and its status first, then the other cells, each named by its `data-label`.
 */
export function drawRequests(state: DashboardState): void {
  const entries = state.visibleEntries();
  const replay = state.mode === 'replay';
  const steps = entries.some((e) => e.step !== undefined);
  const cases = entries.some((e) => e.fuzz !== undefined);
  const columns = [
    'Time',
    'Device',
    'Operation',
    'Status',
    ...(replay ? ['Match', 'Recording'] : ['Scenario']),
    ...(steps ? ['Step'] : []),
    ...(cases ? ['Case'] : []),
    'Duration',
    'Findings',
  ];
  render(
    html`<tr>${columns.map((c) => html`<th scope="col" class=${c === 'Duration' ? 'num' : nothing}>${c}</th>`)}</tr>`,
    byId('requests-head'),
  );
  const row = (entry: JournalEntry) => {
    const match = matchOf(entry, state.mode);
    const findings = entry.findings.length;
    return html`<tr
      data-id=${entry.id}
      class="${findings ? 'has-findings' : ''} ${entry.fault ? 'has-fault' : ''}"
      ?aria-current=${entry.id === state.opened}
    >
      <td><time datetime=${entry.time}>${clockTime(entry.time)}</time></td>
      <td data-label="Device" title=${deviceOf(entry)}>${state.label(deviceOf(entry))}</td>
      <th scope="row"><button type="button" class="link" aria-label="Show request ${entry.id}, ${entry.operation}" data-open=${entry.id}>${entry.operation}</button></th>
      <td class="status-cell"><span class="status ${statusClass(entry.status)}">${entry.status || 'none'}</span>${entry.fault ? html`<span class="badge fault">fault: ${entry.fault}</span>` : nothing}</td>
      ${
        replay
          ? html`<td data-label="Match">${match ? html`<span class="match ${match}">${match}</span>` : '—'}</td>
            <td class="recording" data-label="Recording">${entry.recording ? recordingName(entry.recording) : entry.scenario ? `scenario ${entry.scenario}` : '—'}</td>`
          : html`<td data-label="Scenario">${entry.scenario ?? '—'}</td>`
      }
      ${steps ? html`<td data-label="Step">${entry.step ?? '—'}</td>` : nothing}
      ${cases ? html`<td data-label="Case">${entry.fuzz ? html`<code class="fuzz-case">${entry.fuzz}</code>` : '—'}</td>` : nothing}
      <td class="num">${duration(entry.durationMs)}</td>
      <td data-label="Findings">${
        findings
          ? html`<span class="badge warn" title=${entry.findings.map((f) => f.message).join('\n')}>${count(findings, 'finding')}</span>`
          : html`<span class="muted">none</span>`
      }</td>
    </tr>`;
  };
  render(
    repeat(entries.slice(0, MAX_ROWS), (e) => e.id, row),
    byId('requests-body'),
  );
  byId('requests-count').textContent =
    `${count(entries.length, 'request')}${state.selected === null ? '' : ' of this device'}`;
  byId('requests-empty').hidden = state.entries.size > 0;
}

/** A recording file name that may wrap after its folder: `meta-cp/` then `e9b174249254-000.json`. */
function recordingName(name: string) {
  const slash = name.lastIndexOf('/') + 1;
  if (!slash) return html`<code>${name}</code>`;
  return html`<code><span class="nowrap">${name.slice(0, slash)}</span><wbr><span class="nowrap">${name.slice(slash)}</span></code>`;
}
