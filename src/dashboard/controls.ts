/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import {
  admin,
  messageOf,
  type FaultKind,
  type FaultRequest,
  type Health,
  type OperationName,
  type PlannedFault,
  type ScenarioSummary,
  type VerifyReport,
} from './api.js';
import { announce, byId, copyButton, fill, h } from './dom.js';
import { describeFault, FAULT_FIELDS, OPERATION_LABELS } from './format.js';

/** One way a device reaches the server, as `GET /health` may list it (`deviceUrls`). */
interface DeviceUrl {
  label: string;
  url: string;
  hint?: string;
}

function isDeviceUrl(value: unknown): value is DeviceUrl {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DeviceUrl).label === 'string' &&
    typeof (value as DeviceUrl).url === 'string'
  );
}

/**
 * The URLs a device can use: those the server lists in `deviceUrls`, else this page's origin and
 * the Android emulator's `10.0.2.2` on the same port.
 */
export function deviceUrls(health: Health, location: Pick<Location, 'origin' | 'protocol' | 'port'>): DeviceUrl[] {
  const listed = Array.isArray(health.deviceUrls) ? health.deviceUrls.filter(isDeviceUrl) : [];
  if (listed.length) return listed;
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  return [
    { label: 'This machine', url: location.origin },
    {
      label: 'Android emulator',
      url: `${location.protocol}//10.0.2.2:${port}`,
      hint: 'when mockvideo listens on 127.0.0.1 or 0.0.0.0',
    },
  ];
}

/** A detail's key for people: `recordingDir` → `Recording dir`. */
export function detailLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Whether a scenario answers clients: always in `serve`; in `replay` only with a fallback scenario
 * (`fallbackScenario` in `GET /health`); never in `record`.
 */
function scenarioAnswers(health: Health): boolean {
  return health.mode === 'serve' || (health.mode === 'replay' && typeof health.fallbackScenario === 'string');
}

/**
 * Shows the mode, its details and the device URLs. The header names what answers: the scenario in
 * `serve`, the recording folder (and the fallback scenario, if any) in `replay`, the upstream in
 * `record`; the scenario picker is shown only where a scenario answers.
 */
export function renderServer(health: Health): void {
  const details = Object.entries(health).filter(
    ([key, value]) =>
      !['ok', 'mode', 'scenario', 'uptimeSeconds', 'deviceUrls'].includes(key) &&
      (typeof value === 'string' || typeof value === 'number'),
  );
  byId('mode').textContent = health.mode;
  const scenario = scenarioAnswers(health);
  byId('scenario-pill').hidden = !scenario;
  byId('scenario-pill-label').textContent = health.mode === 'replay' ? 'fallback scenario' : 'scenario';
  byId('scenario-section').hidden = !scenario;
  const source =
    health.mode === 'replay'
      ? ['recordings', health.recordings]
      : health.mode === 'record'
        ? ['upstream', health.upstream]
        : undefined;
  byId('source-pill').hidden = !source;
  if (source) fill(byId('source-pill'), `${source[0]} `, h('strong', {}, String(source[1] ?? '?')));
  fill(
    byId('server-details'),
    h('dt', {}, 'Mode'),
    h('dd', {}, health.mode),
    ...details.flatMap(([key, value]) => [h('dt', {}, detailLabel(key)), h('dd', {}, h('code', {}, String(value)))]),
  );
  fill(
    byId('device-urls'),
    ...deviceUrls(health, window.location).map((u) => {
      const code = h('code', {}, u.url);
      return h(
        'li',
        {},
        h('span', { class: 'label' }, u.label),
        h('span', { class: 'url' }, code, ' ', copyButton(u.url, code, `${u.label} URL`)),
        u.hint && h('span', { class: 'hint' }, u.hint),
      );
    }),
  );
}

/** The scenario picker (for every client without a prefix) and the per-client base URLs. */
export class ScenarioPicker {
  readonly #select = byId<HTMLSelectElement>('scenario-picker');
  readonly #status = byId('scenario-status');
  #scenarios: ScenarioSummary[] = [];
  #active = '';

  constructor() {
    byId<HTMLFormElement>('scenario-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#use(this.#select.value);
    });
    this.#select.addEventListener('change', () => this.#describe());
  }

  /** Fills the picker and the base URL table from `GET /scenarios`. */
  load(active: string, scenarios: ScenarioSummary[]): void {
    this.#scenarios = scenarios;
    fill(this.#select, ...scenarios.map((s) => h('option', { value: s.name }, s.name)));
    fill(
      byId('base-urls'),
      ...scenarios.map((s) => {
        const url = `${window.location.origin}/scenarios/${encodeURIComponent(s.name)}`;
        const code = h('code', {}, url);
        return h(
          'tr',
          {},
          h('th', { scope: 'row' }, s.name),
          h('td', {}, code),
          h('td', {}, copyButton(url, code, `base URL of ${s.name}`)),
        );
      }),
    );
    this.setActive(active);
  }

  /** Shows `name` as the active scenario (the event stream says when it changes). */
  setActive(name: string): void {
    const changed = this.#active !== '' && this.#active !== name;
    this.#active = name;
    byId('active-scenario').textContent = name;
    if (document.activeElement !== this.#select) this.#select.value = name;
    this.#describe();
    if (changed) announce(`Scenario for all clients is now ${name}`);
  }

  #describe(): void {
    const chosen = this.#scenarios.find((s) => s.name === this.#select.value);
    byId('scenario-description').textContent = chosen
      ? `${chosen.description}${chosen.extends ? ` (extends ${chosen.extends})` : ''}`
      : '';
  }

  async #use(name: string): Promise<void> {
    try {
      const answer = await admin.useScenario(name);
      this.setActive(answer.name);
      this.#status.textContent = `Clients without a scenario prefix now get "${answer.name}".`;
    } catch (error) {
      this.#status.textContent = `Could not switch: ${messageOf(error)}`;
    }
  }
}

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
