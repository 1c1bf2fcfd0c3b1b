import type { JournalEntry } from './api.js';
import { announce, byId, fill, h, keepingFocus } from './dom.js';
import { clockTime, deviceLabel, deviceOf, duration, matchOf, statusClass, stepOf } from './format.js';
import type { DashboardState } from './state.js';

/** The most rows the page shows (the journal keeps more; the newest come first). */
const MAX_ROWS = 300;

/**
 * The request table (newest first, only the chosen device's when one is chosen). Its columns follow
 * the mode: in `replay` the match kind (exact, nearest, fallback, miss) and the recording file that
 * answered; elsewhere the scenario. A "Step" column appears when the server reports sequence steps.
 */
export class RequestTable {
  readonly #body = byId<HTMLTableSectionElement>('requests-body');
  readonly #state: DashboardState;
  readonly #open: (id: number) => void;
  #selected: number | undefined;

  constructor(state: DashboardState, open: (id: number) => void) {
    this.#state = state;
    this.#open = open;
    state.subscribe(() => this.#draw());
  }

  /** Says a new request to screen readers. */
  announce(entry: JournalEntry): void {
    const findings = entry.findings.length
      ? `, ${entry.findings.length} contract finding${entry.findings.length === 1 ? '' : 's'}`
      : '';
    const device = deviceLabel(this.#state.device(deviceOf(entry)) ?? { sdevid: deviceOf(entry) });
    announce(
      `Request ${entry.id} from ${device}: ${entry.operation}, status ${entry.status || 'none'}${entry.fault ? `, fault ${entry.fault}` : ''}${findings}`,
    );
  }

  /** Marks the row of request `id` as the one open (`undefined`: none). */
  mark(id: number | undefined): void {
    this.#selected = id;
    for (const row of this.#body.rows) row.toggleAttribute('aria-current', row.dataset.id === String(id));
  }

  /** Gives the focus to the row of request `id`, when it is shown. */
  focus(id: number): void {
    this.#body.querySelector<HTMLButtonElement>(`tr[data-id="${id}"] button`)?.focus();
  }

  #draw(): void {
    const state = this.#state;
    const entries = state.visibleEntries();
    const replay = state.mode === 'replay';
    const steps = entries.some((e) => stepOf(e) !== null);
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
    fill(
      byId('requests-head'),
      h('tr', {}, ...columns.map((c) => h('th', { scope: 'col', class: c === 'Duration' ? 'num' : undefined }, c))),
    );
    keepingFocus(this.#body, () =>
      fill(this.#body, ...entries.slice(0, MAX_ROWS).map((e) => this.#row(e, replay, steps, cases))),
    );
    const n = entries.length;
    byId('requests-count').textContent =
      `${n} request${n === 1 ? '' : 's'}${state.selected === null ? '' : ' of this device'}`;
    byId('requests-empty').hidden = state.entries.size > 0;
  }

  #row(entry: JournalEntry, replay: boolean, steps: boolean, cases: boolean): HTMLTableRowElement {
    const findings = entry.findings.length;
    const device = this.#state.device(deviceOf(entry));
    const match = matchOf(entry, this.#state.mode);
    return h(
      'tr',
      {
        'data-id': entry.id,
        class: [findings ? 'has-findings' : '', entry.fault ? 'has-fault' : ''].join(' ').trim() || undefined,
        'aria-current': entry.id === this.#selected || undefined,
      },
      h('td', {}, h('time', { datetime: entry.time }, clockTime(entry.time))),
      h('td', { title: deviceOf(entry) }, deviceLabel(device ?? { sdevid: deviceOf(entry) })),
      h(
        'th',
        { scope: 'row' },
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'data-key': `row-${entry.id}`,
            'aria-label': `Show request ${entry.id}, ${entry.operation}`,
            onclick: () => this.#open(entry.id),
          },
          entry.operation,
        ),
      ),
      h(
        'td',
        {},
        h('span', { class: `status ${statusClass(entry.status)}` }, entry.status === 0 ? 'none' : entry.status),
        entry.fault && h('span', { class: 'badge fault' }, `fault: ${entry.fault}`),
      ),
      ...(replay
        ? [
            h('td', {}, match ? h('span', { class: `match ${match}` }, match) : '—'),
            h(
              'td',
              { class: 'recording' },
              entry.recording ? recordingName(entry.recording) : entry.scenario ? `scenario ${entry.scenario}` : '—',
            ),
          ]
        : [h('td', {}, entry.scenario ?? '—')]),
      ...(steps ? [h('td', {}, stepOf(entry) ?? '—')] : []),
      ...(cases ? [h('td', {}, entry.fuzz ? h('code', { class: 'fuzz-case' }, entry.fuzz) : '—')] : []),
      h('td', { class: 'num' }, duration(entry.durationMs)),
      h(
        'td',
        {},
        findings
          ? h(
              'span',
              { class: 'badge warn', title: entry.findings.map((f) => f.message).join('\n') },
              `${findings} finding${findings === 1 ? '' : 's'}`,
            )
          : h('span', { class: 'muted' }, 'none'),
      ),
    );
  }
}

/** A recording file name that may wrap after its folder: `meta-cp/` then `e9b174249254-000.json`. */
function recordingName(name: string): HTMLElement {
  const slash = name.lastIndexOf('/');
  return slash < 0
    ? h('code', {}, name)
    : h(
        'code',
        {},
        h('span', { class: 'nowrap' }, name.slice(0, slash + 1)),
        document.createElement('wbr'),
        h('span', { class: 'nowrap' }, name.slice(slash + 1)),
      );
}
