import { html, render } from 'lit-html';
import { admin, messageOf } from './api.js';
import { byId } from './dom.js';
import type { DashboardState } from './state.js';

/**
 * The `verify` report of the current journal (of the chosen device's requests when one is chosen),
 * checked again shortly after `state` changes (a start-up sends six requests at once) and on "Run";
 * before any request, a line that says what it waits for (no failed rule before the app called).
 */
export function showVerify(state: DashboardState): void {
  const report = byId('verify-report');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = async () => {
    try {
      const every = state.selected === null || state.selected === '(no _sdevid)';
      // Nothing to judge yet: no red before the app called.
      if (!state.visibleEntries().length) {
        render(
          html`<p class="verdict muted">
            No device has called yet. Start playback of a local video in the app: verify checks each start-up as it
            arrives.
          </p>`,
          report,
        );
        byId('verify-scope').textContent = every ? 'every device' : 'the chosen device';
        return;
      }
      const { ok, rules } = await admin.verify(every ? null : state.selected);
      const failed = rules.filter((r) => !r.ok).length;
      render(
        html`<p class="verdict ${ok ? 'ok' : 'bad'}">${ok ? 'Every rule holds.' : `${failed} of ${rules.length} rules fail.`}</p>
          <ul class="rules">
            ${rules.map(
              (r) => html`<li class=${r.ok ? 'ok' : 'bad'}>
                <span class="mark" aria-hidden="true">${r.ok ? '✓' : '✗'}</span><span class="visually-hidden">${r.ok ? 'Holds: ' : 'Fails: '}</span><code>${r.rule}</code> ${r.message}
              </li>`,
            )}
          </ul>`,
        report,
      );
      byId('verify-scope').textContent = every ? 'every device' : 'the chosen device';
    } catch (error) {
      render(html`<p class="error">${messageOf(error)}</p>`, report);
    }
  };
  render(html`<p class="muted">Checking…</p>`, report);
  byId('run-verify').addEventListener('click', () => void refresh());
  state.subscribe(() => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), 400);
  });
}
