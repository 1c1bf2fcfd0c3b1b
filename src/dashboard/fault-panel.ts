import { html, render } from 'lit-html';
import { admin, messageOf, type FaultKind, type FaultRequest, type OperationName, type PlannedFault } from './api.js';
import { byId } from './dom.js';
import { OPERATION_TABLE } from '../contract/operation-table.js';
import { count, describeFault, FAULT_FIELDS } from './format.js';

/** The fault form ("inject into the next N requests of an operation") and the planned faults. */
export class FaultPanel {
  readonly #form = byId<HTMLFormElement>('fault-form');
  readonly #kind = byId<HTMLSelectElement>('fault-kind');
  readonly #value = byId<HTMLInputElement>('fault-value');
  readonly #status = byId('fault-status');

  constructor() {
    const option = (value: string, label = value) => html`<option value=${value}>${label}</option>`;
    render(
      [
        option('', 'every operation'),
        ...Object.values(OPERATION_TABLE).map(({ name, data }) => option(name, `${name} (${data})`)),
      ],
      byId('fault-operation'),
    );
    render(
      Object.keys(FAULT_FIELDS).map((kind) => option(kind)),
      this.#kind,
    );
    this.#kind.value = 'status';
    this.#kind.addEventListener('change', () => this.#showValue());
    this.#showValue();
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#inject();
    });
    byId('clear-faults').addEventListener('click', () => {
      admin.clearFaults().then(
        ({ cleared }) => {
          this.#status.textContent = `Cleared ${count(cleared, 'planned fault')}.`;
          return admin.faults().then(({ faults }) => this.render(faults));
        },
        (error: unknown) => (this.#status.textContent = messageOf(error)),
      );
    });
  }

  /** Shows the planned faults (the event stream sends them whenever they change). */
  render(faults: readonly PlannedFault[]): void {
    const row = (f: PlannedFault) => html`<tr class=${f.remaining === 0 ? 'used-up' : ''}>
      <th scope="row">${f.id}</th>
      <td>${f.operation ?? 'every'}</td>
      <td>${describeFault(f)}</td>
      <td class="num">${f.fired}</td>
      <td class="num">${f.remaining ?? 'until cleared'}</td>
    </tr>`;
    render(faults.map(row), byId('faults-body'));
    byId('faults-empty').hidden = faults.length > 0;
  }

  #showValue(): void {
    const field = FAULT_FIELDS[this.#kind.value as FaultKind];
    byId('fault-value-field').hidden = field === null;
    this.#value.disabled = field === null;
    if (field) {
      byId('fault-value-label').textContent = field.label;
      this.#value.value = String(field.value);
    }
  }

  async #inject(): Promise<void> {
    const data = new FormData(this.#form);
    const kind = data.get('kind') as FaultKind;
    const request: FaultRequest = { kind, times: Number(data.get('times')) };
    const operation = data.get('operation');
    if (operation) request.operation = operation as OperationName;
    const field = FAULT_FIELDS[kind];
    if (field) request[field.field] = Number(data.get('value'));
    try {
      const planned = await admin.addFault(request);
      this.#status.textContent = `Planned fault ${planned.id}: ${describeFault(planned)} for the next ${count(request.times, 'request')} of ${planned.operation ?? 'every operation'}.`;
      this.render((await admin.faults()).faults);
    } catch (error) {
      this.#status.textContent = `Could not plan the fault: ${messageOf(error)}`;
    }
  }
}
