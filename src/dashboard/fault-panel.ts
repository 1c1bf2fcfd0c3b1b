import { admin, messageOf, type FaultKind, type FaultRequest, type OperationName, type PlannedFault } from './api.js';
import { byId, fill, h } from './dom.js';
import { describeFault, FAULT_FIELDS, OPERATION_LABELS } from './format.js';

/** The fault form ("inject into the next N requests of an operation") and the planned faults. */
export class FaultPanel {
  readonly #form = byId<HTMLFormElement>('fault-form');
  readonly #kind = byId<HTMLSelectElement>('fault-kind');
  readonly #value = byId<HTMLInputElement>('fault-value');
  readonly #status = byId('fault-status');

  constructor() {
    fill(
      byId('fault-operation'),
      h('option', { value: '' }, 'every operation'),
      ...Object.entries(OPERATION_LABELS).map(([name, label]) => h('option', { value: name }, `${name} (${label})`)),
    );
    fill(this.#kind, ...(Object.keys(FAULT_FIELDS) as FaultKind[]).map((kind) => h('option', { value: kind }, kind)));
    this.#kind.value = 'status';
    this.#kind.addEventListener('change', () => this.#showValue(true));
    this.#showValue(true);
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#inject();
    });
    byId('clear-faults').addEventListener('click', () => {
      admin.clearFaults().then(
        ({ cleared }) => {
          this.#status.textContent = `Cleared ${cleared} planned fault${cleared === 1 ? '' : 's'}.`;
          return admin.faults().then(({ faults }) => this.render(faults));
        },
        (error: unknown) => (this.#status.textContent = messageOf(error)),
      );
    });
  }

  /** Shows the planned faults (the event stream sends them whenever they change). */
  render(faults: readonly PlannedFault[]): void {
    fill(
      byId('faults-body'),
      ...faults.map((f) =>
        h(
          'tr',
          { class: f.remaining === 0 ? 'used-up' : undefined },
          h('th', { scope: 'row' }, f.id),
          h('td', {}, f.operation ?? 'every'),
          h('td', {}, describeFault(f)),
          h('td', { class: 'num' }, f.fired),
          h('td', { class: 'num' }, f.remaining === null ? 'until cleared' : f.remaining),
        ),
      ),
    );
    byId('faults-empty').hidden = faults.length > 0;
  }

  #showValue(reset: boolean): void {
    const field = FAULT_FIELDS[this.#kind.value as FaultKind];
    byId('fault-value-field').hidden = field === null;
    this.#value.disabled = field === null;
    if (field) {
      byId('fault-value-label').textContent = field.label;
      if (reset) this.#value.value = String(field.value);
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
      this.#status.textContent = `Planned fault ${planned.id}: ${describeFault(planned)} for the next ${request.times} request${request.times === 1 ? '' : 's'} of ${planned.operation ?? 'every operation'}.`;
      this.render((await admin.faults()).faults);
    } catch (error) {
      this.#status.textContent = `Could not plan the fault: ${messageOf(error)}`;
    }
  }
}
