import { html, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { AnalyticsEntry } from './api.js';
import { byId } from './dom.js';
import { clockTime, count, recordKind } from './format.js';
import type { DashboardState } from './state.js';

/** The most analytics rows the page shows (the newest). */
const MAX_ROWS = 200;

/**
 * Draws the analytics records the sink received (newest first; the chosen device's only when one is
 * chosen, linked by `_anoyid`), each with its findings and, on demand, its fields.
 */
export function drawAnalytics(state: DashboardState): void {
  byId('analytics-section').hidden = state.mode !== 'serve';
  const records = state.visibleAnalytics();
  byId('analytics-count').textContent = count(records.length, 'record');
  byId('analytics-empty').hidden = records.length > 0;
  const row = (a: AnalyticsEntry) => {
    const sdevid = state.deviceOfRecord(a.record);
    return html`<tr class=${a.findings.length ? 'has-findings' : ''}>
      <td><time datetime=${a.time}>${clockTime(a.time)}</time></td>
      <td>${
        sdevid ? state.label(sdevid) : html`<span class="muted" title="No request carried its _anoyid">unknown</span>`
      }</td>
      <th scope="row">
        <details>
          <summary>${recordKind(a.record)}</summary>
          <pre class="record">${JSON.stringify(a.record, null, 2)}</pre>
        </details>
      </th>
      <td>${
        a.findings.length
          ? html`<ul class="findings">${a.findings.map((f) => html`<li>${f.field && html`<code>${f.field}</code>`} ${f.message}</li>`)}</ul>`
          : html`<span class="muted">none</span>`
      }</td>
    </tr>`;
  };
  render(
    repeat(records.slice(0, MAX_ROWS), (a) => a.id, row),
    byId('analytics-body'),
  );
}
