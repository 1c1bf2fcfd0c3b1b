import { html, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { AnalyticsEntry } from './api.js';
import { byId } from './dom.js';
import { clockTime, count, recordKind } from './format.js';
import type { DashboardState } from './state.js';

/** The most analytics rows the page shows (the newest). */
const MAX_ROWS = 200;

/**
 * The analytics records the sink received (newest first; the chosen device's only when one is
 * chosen, linked by `_anoyid`), each with its findings and, on demand, its fields.
 */
export class AnalyticsTable {
  readonly #state: DashboardState;

  constructor(state: DashboardState) {
    this.#state = state;
    state.subscribe(() => this.#draw());
  }

  #draw(): void {
    const state = this.#state;
    byId('analytics-section').hidden = state.mode !== 'serve';
    const records = state.visibleAnalytics();
    byId('analytics-count').textContent = count(records.length, 'record');
    byId('analytics-empty').hidden = records.length > 0;
    render(
      repeat(
        records.slice(0, MAX_ROWS),
        (a) => a.id,
        (a) => this.#row(a),
      ),
      byId('analytics-body'),
    );
  }

  #row(a: AnalyticsEntry) {
    const sdevid = this.#state.deviceOfRecord(a.record);
    return html`<tr class=${a.findings.length ? 'has-findings' : ''}>
      <td><time datetime=${a.time}>${clockTime(a.time)}</time></td>
      <td>${
        sdevid
          ? this.#state.label(sdevid)
          : html`<span class="muted" title="No request carried its _anoyid">unknown</span>`
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
  }
}
