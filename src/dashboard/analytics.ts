import { byId, fill, h } from './dom.js';
import { clockTime, deviceLabel, recordKind } from './format.js';
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
    byId('analytics-count').textContent = `${records.length} record${records.length === 1 ? '' : 's'}`;
    byId('analytics-empty').hidden = records.length > 0;
    fill(
      byId('analytics-body'),
      ...records.slice(0, MAX_ROWS).map((a) => {
        const sdevid = state.deviceOfRecord(a.record);
        return h(
          'tr',
          { class: a.findings.length ? 'has-findings' : undefined },
          h('td', {}, h('time', { datetime: a.time }, clockTime(a.time))),
          h(
            'td',
            {},
            sdevid
              ? deviceLabel(state.device(sdevid) ?? { sdevid })
              : h('span', { class: 'muted', title: 'No request carried its _anoyid' }, 'unknown'),
          ),
          h(
            'th',
            { scope: 'row' },
            h(
              'details',
              {},
              h('summary', {}, recordKind(a.record)),
              h('pre', { class: 'record' }, JSON.stringify(a.record, null, 2)),
            ),
          ),
          h(
            'td',
            {},
            a.findings.length
              ? h(
                  'ul',
                  { class: 'findings' },
                  ...a.findings.map((f) => h('li', {}, f.field && h('code', {}, f.field), ' ', f.message)),
                )
              : h('span', { class: 'muted' }, 'none'),
          ),
        );
      }),
    );
  }
}
