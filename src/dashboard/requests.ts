import { admin, messageOf, type JournalEntry, type RequestDetail } from './api.js';
import { announce, byId, fill, h } from './dom.js';
import { clockTime, duration, prettyBody, statusClass } from './format.js';

/** The most rows the page shows (the journal keeps more; the newest come first). */
const MAX_ROWS = 300;

/**
 * The live request list (newest first) and the detail view of one request. Rows come from the
 * journal at start-up and then one by one from the event stream; each is announced politely.
 */
export class RequestList {
  readonly #entries = new Map<number, JournalEntry>();
  readonly #body = byId<HTMLTableSectionElement>('requests-body');
  readonly #count = byId('requests-count');
  #selected: number | undefined;
  /** Called after every change of the list (e.g. to check the journal again). */
  onChange: () => void = () => {};

  /** Shows `entries` (the whole journal), keeping rows that arrived live after it was read. */
  replaceAll(entries: readonly JournalEntry[]): void {
    const newest = entries.reduce((max, e) => Math.max(max, e.id), 0);
    const later = [...this.#entries.values()].filter((e) => e.id > newest);
    this.#entries.clear();
    for (const entry of [...entries, ...later]) this.#entries.set(entry.id, entry);
    fill(this.#body, ...[...this.#entries.values()].sort((a, b) => b.id - a.id).slice(0, MAX_ROWS).map((e) => this.#row(e)));
    this.#changed();
  }

  /** Adds one live entry at the top and announces it. */
  add(entry: JournalEntry): void {
    if (this.#entries.has(entry.id)) return;
    this.#entries.set(entry.id, entry);
    this.#body.prepend(this.#row(entry));
    while (this.#body.rows.length > MAX_ROWS) this.#body.lastElementChild?.remove();
    const findings = entry.findings.length ? `, ${entry.findings.length} contract finding${entry.findings.length === 1 ? '' : 's'}` : '';
    announce(`Request ${entry.id}: ${entry.operation}, status ${entry.status || 'none'}, from ${entry.scenario ?? 'no scenario'}${entry.fault ? `, fault ${entry.fault}` : ''}${findings}`);
    this.#changed();
  }

  /** Forgets every row (the journal was cleared) and closes the detail view. */
  clear(): void {
    this.#entries.clear();
    this.#body.replaceChildren();
    this.close();
    this.#changed();
  }

  /** Hides the detail view and gives the focus back to the row it came from. */
  close(): void {
    byId('detail').hidden = true;
    const id = this.#selected;
    this.#selected = undefined;
    for (const row of this.#body.querySelectorAll('tr[aria-current]')) row.removeAttribute('aria-current');
    if (id !== undefined) this.#body.querySelector<HTMLButtonElement>(`tr[data-id="${id}"] button`)?.focus();
  }

  #changed(): void {
    const n = this.#entries.size;
    this.#count.textContent = `${n} request${n === 1 ? '' : 's'}`;
    byId('requests-empty').hidden = n > 0;
    this.onChange();
  }

  #row(entry: JournalEntry): HTMLTableRowElement {
    const findings = entry.findings.length;
    return h(
      'tr',
      { 'data-id': entry.id, class: [findings ? 'has-findings' : '', entry.fault ? 'has-fault' : ''].join(' ').trim() || undefined },
      h('td', {}, h('time', { datetime: entry.time }, clockTime(entry.time))),
      h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', 'aria-label': `Show request ${entry.id}, ${entry.operation}`, onclick: () => void this.open(entry.id) }, entry.operation)),
      h('td', {}, h('span', { class: `status ${statusClass(entry.status)}` }, entry.status === 0 ? 'none' : entry.status), entry.fault && h('span', { class: 'badge fault' }, `fault: ${entry.fault}`)),
      h('td', {}, entry.match ?? '—'),
      h('td', {}, entry.scenario ?? '—'),
      h('td', { class: 'num' }, duration(entry.durationMs)),
      h('td', {}, findings ? h('span', { class: 'badge warn', title: entry.findings.map((f) => f.message).join('\n') }, `${findings} finding${findings === 1 ? '' : 's'}`) : h('span', { class: 'muted' }, 'none')),
    );
  }

  /** Reads request `id` from the journal and shows it in the detail view. */
  async open(id: number): Promise<void> {
    const section = byId('detail');
    const heading = byId('detail-heading');
    const content = byId('detail-content');
    this.#selected = id;
    for (const row of this.#body.rows) row.toggleAttribute('aria-current', row.dataset.id === String(id));
    try {
      const detail = await admin.request(id);
      heading.textContent = `Request ${id}: ${detail.request.method} ${detail.operation}`;
      fill(content, ...detailView(detail));
    } catch (error) {
      heading.textContent = `Request ${id}`;
      fill(content, h('p', { class: 'error' }, messageOf(error)));
    }
    section.hidden = false;
    heading.focus();
  }
}

function detailView(detail: RequestDetail): HTMLElement[] {
  const byParameter = new Map<string, string[]>();
  for (const f of detail.findings) byParameter.set(f.parameter, [...(byParameter.get(f.parameter) ?? []), f.message]);
  const queryRows = Object.entries(detail.query).flatMap(([name, values]) =>
    values.map((value) =>
      h(
        'tr',
        { class: byParameter.has(name) ? 'has-findings' : undefined },
        h('th', { scope: 'row' }, h('code', {}, name)),
        h('td', {}, value === '' ? h('span', { class: 'muted' }, '(empty)') : h('code', {}, value)),
        h('td', {}, byParameter.get(name)?.join('; ') ?? ''),
      ),
    ),
  );
  return [
    h(
      'dl',
      { class: 'facts' },
      ...fact('Time', detail.time),
      ...fact('Path', detail.request.path),
      ...fact('Status', detail.status === 0 ? 'none (no answer sent)' : String(detail.status)),
      ...fact('Scenario', detail.scenario ?? '—'),
      ...fact('Match', detail.match ?? '—'),
      ...fact('Fault', detail.fault ?? 'none'),
      ...fact('Duration', duration(detail.durationMs)),
    ),
    h('h3', {}, 'Contract findings'),
    detail.findings.length
      ? h('ul', { class: 'findings' }, ...detail.findings.map((f) => h('li', {}, h('code', {}, f.rule), ' ', f.parameter && h('code', {}, f.parameter), ' ', f.message)))
      : h('p', { class: 'muted' }, 'None: the request keeps the contract.'),
    h('h3', {}, 'Query (secrets redacted)'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'query' },
        h('caption', { class: 'visually-hidden' }, 'Query parameters as received, secrets redacted'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Parameter'), h('th', { scope: 'col' }, 'Value'), h('th', { scope: 'col' }, 'Finding'))),
        h('tbody', {}, ...queryRows),
      ),
    ),
    h('h3', {}, 'Response body'),
    h('pre', { class: 'body', tabindex: 0, 'aria-label': 'Response body' }, prettyBody(detail.response.body)),
  ];
}

function fact(term: string, value: string): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, value)];
}
