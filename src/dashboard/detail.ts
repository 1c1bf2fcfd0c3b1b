import { html, nothing, render } from 'lit-html';
import { createRef, ref } from 'lit-html/directives/ref.js';
import { admin, messageOf, type RequestDetail } from './api.js';
import { byId, copyButton, facts } from './dom.js';
import { curlCommand, deviceOf, duration, matchOf, prettyBody } from './format.js';
import type { DashboardState } from './state.js';

/**
 * Reads request `id` from the journal, shows its detail and moves the focus to its heading: its
 * facts, contract findings, query (secrets redacted), the response body as sent (escapes such as
 * `\u0026` visible) with a toggle to the pretty-printed form, and the request as a `curl` command to copy.
 */
export async function openDetail(state: DashboardState, id: number): Promise<void> {
  const heading = byId('detail-heading');
  try {
    const detail = await admin.request(id);
    heading.textContent = `Request ${id}: ${detail.request.method} ${detail.operation}`;
    showDetail(state, detail, false);
  } catch (error) {
    heading.textContent = `Request ${id}`;
    render(html`<p class="error">${messageOf(error)}</p>`, byId('detail-content'));
  }
  byId('detail').hidden = false;
  heading.focus();
}

/** Draws `detail`, its body as sent or (`pretty`) pretty-printed. */
function showDetail(state: DashboardState, detail: RequestDetail, pretty: boolean): void {
  const queryRows = Object.entries(detail.query).flatMap(([name, values]) => {
    const findings = detail.findings.filter((f) => f.parameter === name).map((f) => f.message);
    return values.map(
      (value) => html`<tr class=${findings.length ? 'has-findings' : nothing}>
        <th scope="row"><code>${name}</code></th>
        <td>${value === '' ? html`<span class="muted">(empty)</span>` : html`<code>${value}</code>`}</td>
        <td>${findings.join('; ')}</td>
      </tr>`,
    );
  });
  const sdevid = deviceOf(detail);
  const match = matchOf(detail, state.mode);
  const curl = curlCommand(window.location.origin, detail.request);
  const curlText = createRef<HTMLElement>();
  const raw = detail.response.body;
  const pairs: Array<[string, string | null | undefined]> = [
    ['Time', detail.time],
    ['Device', `${state.label(sdevid)} (${sdevid})`],
    ['Path', detail.request.path],
    ['Status', detail.status === 0 ? 'none (no answer sent)' : String(detail.status)],
    ['Scenario', detail.scenario ?? '—'],
    ['Match', match],
    ['Recording', detail.recording],
    ['Step', detail.step],
    ['Fuzz case', detail.fuzz],
    ['Fault', detail.fault ?? 'none'],
    ['Duration', duration(detail.durationMs)],
  ];
  render(
    html`<dl class="facts">${facts(pairs.filter(([, value]) => value))}</dl>
      <h3>Contract findings</h3>
      ${
        detail.findings.length
          ? html`<ul class="findings">
            ${detail.findings.map((f) => html`<li><code>${f.rule}</code> ${f.parameter && html`<code>${f.parameter}</code>`} ${f.message}</li>`)}
          </ul>`
          : html`<p class="muted">None: the request keeps the contract.</p>`
      }
      <h3>Query (secrets redacted)</h3>
      <div class="scroll">
        <table class="query">
          <caption class="visually-hidden">Query parameters as received, secrets redacted</caption>
          <thead><tr><th scope="col">Parameter</th><th scope="col">Value</th><th scope="col">Finding</th></tr></thead>
          <tbody>${queryRows}</tbody>
        </table>
      </div>
      <div class="section-head"><h3>As curl</h3>${copyButton(curl, curlText, 'the request as curl')}</div>
      <pre class="curl" tabindex="0" aria-label="The request as a curl command" ${ref(curlText)}>${curl}</pre>
      <div class="section-head">
        <h3>Response body</h3>
        <span class="muted">as sent, escapes such as \\u0026 visible</span>
        <button type="button" class="secondary small" aria-pressed=${pretty} @click=${() => showDetail(state, detail, !pretty)}>Pretty-print</button>
      </div>
      <pre class="body" tabindex="0" aria-label=${pretty ? 'Response body, pretty-printed' : 'Response body as sent'}>${
        pretty ? prettyBody(raw) : raw || '(empty body)'
      }</pre>`,
    byId('detail-content'),
  );
}
