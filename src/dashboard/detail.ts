import { admin, messageOf, type RequestDetail } from './api.js';
import { byId, copyButton, fill, h } from './dom.js';
import { curlCommand, deviceLabel, deviceOf, duration, matchOf, prettyBody, stepOf } from './format.js';
import type { DashboardState } from './state.js';

/**
 * The detail of one request: its facts, contract findings, query (secrets redacted), the response
 * body as sent (escapes such as `\u0026` visible) with a toggle to the pretty-printed form, and the
 * request as a `curl` command to copy.
 */
export class RequestDetailView {
  readonly #section = byId('detail');
  readonly #heading = byId('detail-heading');
  readonly #content = byId('detail-content');
  readonly #state: DashboardState;
  /** The request shown, or `undefined`. */
  shown: number | undefined;

  constructor(state: DashboardState) {
    this.#state = state;
  }

  /** Reads request `id` from the journal, shows it and moves the focus to its heading. */
  async open(id: number): Promise<void> {
    this.shown = id;
    try {
      const detail = await admin.request(id);
      this.#heading.textContent = `Request ${id}: ${detail.request.method} ${detail.operation}`;
      fill(this.#content, ...this.#view(detail));
    } catch (error) {
      this.#heading.textContent = `Request ${id}`;
      fill(this.#content, h('p', { class: 'error' }, messageOf(error)));
    }
    this.#section.hidden = false;
    this.#heading.focus();
  }

  /** Hides the detail. */
  close(): void {
    this.#section.hidden = true;
    this.shown = undefined;
  }

  #view(detail: RequestDetail): HTMLElement[] {
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
    const sdevid = deviceOf(detail);
    const match = matchOf(detail, this.#state.mode);
    const step = stepOf(detail);
    const curl = curlCommand(window.location.origin, detail.request);
    const curlText = h('pre', { class: 'curl', tabindex: 0, 'aria-label': 'The request as a curl command' }, curl);
    return [
      h(
        'dl',
        { class: 'facts' },
        ...fact('Time', detail.time),
        ...fact('Device', `${deviceLabel(this.#state.device(sdevid) ?? { sdevid })} (${sdevid})`),
        ...fact('Path', detail.request.path),
        ...fact('Status', detail.status === 0 ? 'none (no answer sent)' : String(detail.status)),
        ...fact('Scenario', detail.scenario ?? '—'),
        ...(match ? fact('Match', match) : []),
        ...(detail.recording ? fact('Recording', detail.recording) : []),
        ...(step ? fact('Step', step) : []),
        ...(detail.fuzz ? fact('Fuzz case', detail.fuzz) : []),
        ...fact('Fault', detail.fault ?? 'none'),
        ...fact('Duration', duration(detail.durationMs)),
      ),
      h('h3', {}, 'Contract findings'),
      detail.findings.length
        ? h(
            'ul',
            { class: 'findings' },
            ...detail.findings.map((f) =>
              h('li', {}, h('code', {}, f.rule), ' ', f.parameter && h('code', {}, f.parameter), ' ', f.message),
            ),
          )
        : h('p', { class: 'muted' }, 'None: the request keeps the contract.'),
      h('h3', {}, 'Query (secrets redacted)'),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { class: 'query' },
          h('caption', { class: 'visually-hidden' }, 'Query parameters as received, secrets redacted'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Parameter'),
              h('th', { scope: 'col' }, 'Value'),
              h('th', { scope: 'col' }, 'Finding'),
            ),
          ),
          h('tbody', {}, ...queryRows),
        ),
      ),
      h('div', { class: 'section-head' }, h('h3', {}, 'As curl'), copyButton(curl, curlText, 'the request as curl')),
      curlText,
      ...bodyView(detail.response.body),
    ];
  }
}

/** The response body as sent, and a button that switches to the pretty-printed JSON and back. */
function bodyView(raw: string): HTMLElement[] {
  const pre = h(
    'pre',
    { class: 'body', tabindex: 0, 'aria-label': 'Response body as sent' },
    raw === '' ? '(empty body)' : raw,
  );
  let pretty = false;
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'aria-pressed': 'false',
      onclick: () => {
        pretty = !pretty;
        pre.textContent = pretty ? prettyBody(raw) : raw === '' ? '(empty body)' : raw;
        pre.setAttribute('aria-label', pretty ? 'Response body, pretty-printed' : 'Response body as sent');
        toggle.setAttribute('aria-pressed', String(pretty));
      },
    },
    'Pretty-print',
  );
  return [
    h(
      'div',
      { class: 'section-head' },
      h('h3', {}, 'Response body'),
      h('span', { class: 'muted' }, 'as sent, escapes such as \\u0026 visible'),
      toggle,
    ),
    pre,
  ];
}

function fact(term: string, value: string): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, value)];
}
