import { html, nothing, render } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { admin, harUrl, messageOf, type DeviceSummary } from './api.js';
import { announce, byId, facts } from './dom.js';
import { clockTime, count, describeAimedFault, deviceLabel, scenarioOfDevice } from './format.js';
import type { DashboardState } from './state.js';

/**
 * The device list: one card per `_sdevid` with its model, Android and app versions, first and last
 * request, and counts; "Show only this device" filters the whole page by it. Below, the chosen
 * device's name form (kept by the server while it runs) and its HAR. Draws on every change of `state`.
 */
export function showDevices(state: DashboardState): void {
  const name = byId<HTMLInputElement>('device-name');
  const status = byId('device-status');
  const choose = (sdevid: string | null) => {
    status.textContent = '';
    state.select(sdevid);
    announce(sdevid === null ? 'Showing every device' : `Showing ${state.label(sdevid)} only`);
  };
  byId('all-devices').addEventListener('click', () => choose(null));
  byId('device-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const sdevid = state.selected;
    if (sdevid === null) return;
    admin
      .nameDevice(sdevid, name.value)
      .then((answer) => {
        status.textContent = answer.name ? `Named "${answer.name}" (kept while mockvideo runs).` : 'Name removed.';
        return state.refresh();
      })
      .catch((error: unknown) => (status.textContent = `Could not name the device: ${messageOf(error)}`));
  });
  const card = (device: DeviceSummary, records: number) => {
    const chosen = state.selected === device.sdevid;
    const pairs = [
      ['Model', device.model ?? '—'],
      ['Android', device.andver ?? '—'],
      ['App', device.appver ?? '—'],
      [
        'Seen',
        device.firstSeen && device.lastSeen
          ? `${clockTime(device.firstSeen)} – ${clockTime(device.lastSeen)}`
          : 'not yet',
      ],
      ...(device.scenario === null ? [] : [['Scenario', scenarioOfDevice(device)] as const]),
      ...(device.aimedFaults.length
        ? [['Aimed faults', device.aimedFaults.map(describeAimedFault).join('; ')] as const]
        : []),
    ] as const;
    return html`<li class="device${chosen ? ' chosen' : ''}" data-device=${device.sdevid}>
      <div class="device-head">
        <strong>${deviceLabel(device)}</strong>
        ${
          device.name
            ? html`<code class="muted" title=${device.sdevid}>${deviceLabel({ sdevid: device.sdevid })}</code>`
            : nothing
        }
      </div>
      <dl class="facts small">${facts(pairs)}</dl>
      <p class="counts">${[
        html`<span>${count(device.requests, 'request')}</span>`,
        html`<span class=${device.findings ? 'badge warn' : 'muted'}>${count(device.findings, 'finding')}</span>`,
        device.faults ? html`<span class="badge fault">${count(device.faults, 'fault')}</span>` : nothing,
        records ? html`<span class="muted">${records} analytics</span>` : nothing,
      ]}</p>
      <button
        type="button"
        class=${chosen ? '' : 'secondary'}
        aria-pressed=${chosen}
        @click=${() => choose(chosen ? null : device.sdevid)}
      >${chosen ? 'Showing only this device' : 'Show only this device'}</button>
    </li>`;
  };
  state.subscribe(() => {
    const { devices, selected, analytics } = state;
    byId('devices-count').textContent = count(devices.length, 'device');
    byId('devices-empty').hidden = devices.length > 0;
    byId('all-devices').hidden = selected === null;
    const records = (d: DeviceSummary) => analytics.filter((a) => state.deviceOfRecord(a.record) === d.sdevid);
    render(
      repeat(
        devices,
        (d) => d.sdevid,
        (d) => card(d, records(d).length),
      ),
      byId('device-list'),
    );
    const chosen = selected === null ? undefined : state.device(selected);
    byId('device-form').hidden = !chosen;
    if (chosen) {
      byId('device-form-label').textContent = `Name for ${deviceLabel({ sdevid: chosen.sdevid })}`;
      if (document.activeElement !== name) name.value = chosen.name ?? '';
      const har = byId<HTMLAnchorElement>('device-har');
      const sdevid = chosen.sdevid === '(no _sdevid)' ? undefined : chosen.sdevid;
      har.href = sdevid === undefined ? harUrl({ ids: state.visibleEntries().map((e) => e.id) }) : harUrl({ sdevid });
      har.download = `mockvideo-${deviceLabel(chosen).replace(/[^\w.-]+/g, '-')}.har`;
    }
    byId('filter-note').textContent = chosen ? `Showing ${deviceLabel(chosen)} only.` : '';
  });
}
