import { html, render } from 'lit-html';
import { admin, messageOf, type VerifyReport } from './api.js';
import { byId } from './dom.js';

/**
 * The `verify` report of the current journal (of the chosen device's requests when `device()` gives
 * one), checked again shortly after it changes.
 */
export class VerifyPanel {
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #report = byId('verify-report');
  readonly #device: () => string | null;

  constructor(device: () => string | null = () => null) {
    this.#device = device;
    render(html`<p class="muted">Checking…</p>`, this.#report);
    byId('run-verify').addEventListener('click', () => void this.refresh());
  }

  /** Checks again after a short quiet time (a start-up sends six requests at once). */
  soon(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.refresh(), 400);
  }

  async refresh(): Promise<void> {
    try {
      const device = this.#device();
      const every = device === null || device === '(no _sdevid)';
      this.render(await admin.verify(every ? null : device));
      byId('verify-scope').textContent = every ? 'every device' : 'the chosen device';
    } catch (error) {
      render(html`<p class="error">${messageOf(error)}</p>`, this.#report);
    }
  }

  render(report: VerifyReport): void {
    const failed = report.rules.filter((r) => !r.ok).length;
    render(
      html`<p class="verdict ${report.ok ? 'ok' : 'bad'}">${
        report.ok ? 'Every rule holds.' : `${failed} of ${report.rules.length} rules fail.`
      }</p>
        <ul class="rules">
          ${report.rules.map(
            (r) => html`<li class=${r.ok ? 'ok' : 'bad'}>
              <span class="mark" aria-hidden="true">${r.ok ? '✓' : '✗'}</span><span class="visually-hidden">${r.ok ? 'Holds: ' : 'Fails: '}</span><code>${r.rule}</code> ${r.message}
            </li>`,
          )}
        </ul>`,
      this.#report,
    );
  }
}
