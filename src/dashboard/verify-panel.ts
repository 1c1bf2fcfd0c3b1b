import { admin, messageOf, type VerifyReport } from './api.js';
import { byId, fill, h } from './dom.js';

/**
 * The `verify` report of the current journal (of the chosen device's requests when `device()` gives
 * one), checked again shortly after it changes.
 */
export class VerifyPanel {
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #device: () => string | null;

  constructor(device: () => string | null = () => null) {
    this.#device = device;
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
      this.render(await admin.verify(device === '(no _sdevid)' ? null : device));
      byId('verify-scope').textContent =
        device === null || device === '(no _sdevid)' ? 'every device' : 'the chosen device';
    } catch (error) {
      fill(byId('verify-report'), h('p', { class: 'error' }, messageOf(error)));
    }
  }

  render(report: VerifyReport): void {
    fill(
      byId('verify-report'),
      h(
        'p',
        { class: `verdict ${report.ok ? 'ok' : 'bad'}` },
        report.ok
          ? 'Every rule holds.'
          : `${report.rules.filter((r) => !r.ok).length} of ${report.rules.length} rules fail.`,
      ),
      h(
        'ul',
        { class: 'rules' },
        ...report.rules.map((r) =>
          h(
            'li',
            { class: r.ok ? 'ok' : 'bad' },
            h('span', { class: 'mark', 'aria-hidden': 'true' }, r.ok ? '✓' : '✗'),
            h('span', { class: 'visually-hidden' }, r.ok ? 'Holds: ' : 'Fails: '),
            h('code', {}, r.rule),
            ' ',
            r.message,
          ),
        ),
      ),
    );
  }
}
