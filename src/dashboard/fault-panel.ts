import { html, render } from 'lit-html';
import { admin, messageOf, type FaultKind, type FaultRequest, type OperationName, type PlannedFault } from './api.js';
import { byId } from './dom.js';
import { OPERATION_TABLE } from '../contract/operation-table.js';
import { count, describeFault, deviceLabel, FAULT_FIELDS } from './format.js';
import type { DashboardState } from './state.js';

/** The planned faults shown, by id, in plan order. */
const shown = new Map<number, PlannedFault>();

/** Draws the faults of {@link shown}. */
function draw(): void {
  const row = (f: PlannedFault) => html`<tr class=${f.remaining === 0 ? 'used-up' : ''}>
    <th scope="row">${f.id}</th>
    <td>
      ${f.operation ?? 'every'}
      ${f.device === undefined ? '' : html`<span class="muted aimed" title=${f.device}>only ${deviceLabel({ sdevid: f.device })}</span>`}
    </td>
    <td>${describeFault(f)}</td>
    <td class="num">${f.fired}</td>
    <td class="num">${f.remaining ?? 'until cleared'}</td>
  </tr>`;
  render([...shown.values()].map(row), byId('faults-body'));
  byId('faults-empty').hidden = shown.size > 0;
}

/** Shows these planned faults, all of them (`GET /faults`, or the event stream's first `faults` event). */
export function drawFaults(faults: readonly PlannedFault[]): void {
  shown.clear();
  for (const planned of faults) shown.set(planned.id, planned);
  draw();
}

/**
 * Applies the event stream's `faults-changed` event: the faults planned or counted since the last
 * one (`changed`, whole) and the ids of those removed. A new fault goes last (ids grow in plan order).
 */
export function applyFaultChanges({
  changed,
  removed,
}: {
  changed: readonly PlannedFault[];
  removed: readonly number[];
}): void {
  for (const id of removed) shown.delete(id);
  for (const planned of changed) shown.set(planned.id, planned);
  draw();
}

/**
 * Sets up the fault form ("inject into the next N requests of an operation", of every device or of
 * one: the devices of `state`, the chosen one first) and its "Clear" button.
 */
export function setUpFaultForm(state: DashboardState): void {
  const form = byId<HTMLFormElement>('fault-form');
  const kind = byId<HTMLSelectElement>('fault-kind');
  const value = byId<HTMLInputElement>('fault-value');
  const status = byId('fault-status');
  const option = (value: string, label = value) => html`<option value=${value}>${label}</option>`;
  render(
    [
      option('', 'every operation'),
      ...Object.values(OPERATION_TABLE).map(({ name, data }) => option(name, `${name} (${data})`)),
    ],
    byId('fault-operation'),
  );
  const showValue = () => {
    const field = FAULT_FIELDS[kind.value as FaultKind];
    byId('fault-value-field').hidden = !field;
    value.disabled = !field;
    if (field) {
      byId('fault-value-label').textContent = field.label;
      value.value = String(field.value);
    }
  };
  const device = byId<HTMLSelectElement>('fault-device');
  state.subscribe(() => {
    const devices = state.devices.filter((d) => d.sdevid !== '(no _sdevid)');
    const first = devices.find((d) => d.sdevid === state.selected);
    const picked = device.value;
    const ordered = first ? [first, ...devices.filter((d) => d !== first)] : devices;
    render([option('', 'every device'), ...ordered.map((d) => option(d.sdevid, deviceLabel(d)))], device);
    device.value = devices.some((d) => d.sdevid === picked) ? picked : '';
  });
  kind.addEventListener('change', showValue);
  // The kinds are the server's (GET /faults says them), so a new kind needs nothing here.
  void admin.faults().then(({ kinds }) => {
    render(
      kinds.map((k) => option(k)),
      kind,
    );
    kind.value = 'status';
    showValue();
  });
  const redraw = () => admin.faults().then(({ faults }) => drawFaults(faults));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const request: FaultRequest = { kind: data.get('kind') as FaultKind, times: Number(data.get('times')) };
    const operation = data.get('operation');
    if (operation) request.operation = operation as OperationName;
    const aimed = data.get('device');
    if (aimed) request.device = String(aimed);
    const field = FAULT_FIELDS[request.kind];
    if (field) request[field.field] = Number(data.get('value'));
    admin
      .addFault(request)
      .then((planned) => {
        const whose = planned.device === undefined ? '' : ` of ${state.label(planned.device)} only`;
        status.textContent = `Planned fault ${planned.id}: ${describeFault(planned)} for the next ${count(request.times, 'request')} of ${planned.operation ?? 'every operation'}${whose}.`;
        return redraw();
      })
      .catch((error: unknown) => (status.textContent = `Could not plan the fault: ${messageOf(error)}`));
  });
  byId('clear-faults').addEventListener('click', () => {
    admin.clearFaults().then(
      ({ cleared }) => {
        status.textContent = `Cleared ${count(cleared, 'planned fault')}.`;
        return redraw();
      },
      (error: unknown) => (status.textContent = messageOf(error)),
    );
  });
}
