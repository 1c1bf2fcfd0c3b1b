import { admin, harUrl, messageOf, type DeviceSummary } from './api.js';
import { announce, byId, fill, h, keepingFocus } from './dom.js';
import { clockTime, deviceLabel } from './format.js';
import type { DashboardState } from './state.js';

/**
 * The device list: one card per `_sdevid` with its model, Android and app versions, first and last
 * request, and counts; "Show only this device" filters the whole page by it. Below, the chosen
 * device's name form (kept by the server while it runs) and its HAR.
 */
export class DevicePanel {
  readonly #list = byId('device-list');
  readonly #state: DashboardState;
  readonly #form = byId<HTMLFormElement>('device-form');
  readonly #name = byId<HTMLInputElement>('device-name');
  readonly #status = byId('device-status');

  constructor(state: DashboardState) {
    this.#state = state;
    state.subscribe(() => this.#draw());
    byId('all-devices').addEventListener('click', () => this.#choose(null));
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#rename();
    });
  }

  #draw(): void {
    const { devices, selected, analytics } = this.#state;
    byId('devices-count').textContent = `${devices.length} device${devices.length === 1 ? '' : 's'}`;
    byId('devices-empty').hidden = devices.length > 0;
    byId('all-devices').hidden = selected === null;
    keepingFocus(this.#list, () =>
      fill(
        this.#list,
        ...devices.map((d) =>
          this.#card(d, analytics.filter((a) => this.#state.deviceOfRecord(a.record) === d.sdevid).length),
        ),
      ),
    );
    const chosen = selected === null ? undefined : this.#state.device(selected);
    this.#form.hidden = !chosen;
    if (chosen) {
      byId('device-form-label').textContent = `Name for ${deviceLabel({ sdevid: chosen.sdevid })}`;
      if (document.activeElement !== this.#name) this.#name.value = chosen.name ?? '';
      const har = byId<HTMLAnchorElement>('device-har');
      const sdevid = chosen.sdevid === '(no _sdevid)' ? undefined : chosen.sdevid;
      har.href =
        sdevid === undefined ? harUrl({ ids: this.#state.visibleEntries().map((e) => e.id) }) : harUrl({ sdevid });
      har.download = `mockvideo-${deviceLabel(chosen).replace(/[^\w.-]+/g, '-')}.har`;
    }
    byId('filter-note').textContent = chosen ? `Showing ${deviceLabel(chosen)} only.` : '';
  }

  #card(device: DeviceSummary, records: number): HTMLElement {
    const chosen = this.#state.selected === device.sdevid;
    const facts: Array<[string, string]> = [
      ['Model', device.model ?? '—'],
      ['Android', device.andver ?? '—'],
      ['App', device.appver ?? '—'],
      ['Seen', `${clockTime(device.firstSeen)} – ${clockTime(device.lastSeen)}`],
    ];
    return h(
      'li',
      { class: `device${chosen ? ' chosen' : ''}`, 'data-device': device.sdevid },
      h(
        'div',
        { class: 'device-head' },
        h('strong', {}, deviceLabel(device)),
        device.name && h('code', { class: 'muted', title: device.sdevid }, deviceLabel({ sdevid: device.sdevid })),
      ),
      h('dl', { class: 'facts small' }, ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h(
        'p',
        { class: 'counts' },
        h('span', {}, `${device.requests} request${device.requests === 1 ? '' : 's'}`),
        h(
          'span',
          { class: device.findings ? 'badge warn' : 'muted' },
          `${device.findings} finding${device.findings === 1 ? '' : 's'}`,
        ),
        device.faults
          ? h('span', { class: 'badge fault' }, `${device.faults} fault${device.faults === 1 ? '' : 's'}`)
          : null,
        records ? h('span', { class: 'muted' }, `${records} analytics`) : null,
      ),
      h(
        'button',
        {
          type: 'button',
          class: chosen ? '' : 'secondary',
          'aria-pressed': String(chosen),
          'data-key': `device-${device.sdevid}`,
          onclick: () => this.#choose(chosen ? null : device.sdevid),
        },
        chosen ? 'Showing only this device' : 'Show only this device',
      ),
    );
  }

  #choose(sdevid: string | null): void {
    this.#status.textContent = '';
    this.#state.select(sdevid);
    announce(
      sdevid === null
        ? 'Showing every device'
        : `Showing ${deviceLabel(this.#state.device(sdevid) ?? { sdevid })} only`,
    );
  }

  async #rename(): Promise<void> {
    const sdevid = this.#state.selected;
    if (sdevid === null) return;
    try {
      const answer = await admin.nameDevice(sdevid, this.#name.value);
      this.#status.textContent = answer.name ? `Named "${answer.name}" (kept while mockvideo runs).` : 'Name removed.';
      await this.#state.refresh();
    } catch (error) {
      this.#status.textContent = `Could not name the device: ${messageOf(error)}`;
    }
  }
}
