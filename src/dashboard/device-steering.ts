import { html, render } from 'lit-html';
import { admin, messageOf, type DeviceSummary } from './api.js';
import { announce, byId } from './dom.js';
import { deviceLabel, scenarioOfDevice } from './format.js';
import type { DashboardState } from './state.js';

/** The device of the requests without `_sdevid`: no one device, so it cannot be given a scenario. */
const NO_DEVICE = '(no _sdevid)';

/**
 * The chosen device's scenario picker: **Use for this device** gives it the scenario picked (its
 * requests answer from it instead of the server's, `PUT /devices/SDEVID/scenario`), **Follow the
 * server** gives it back (`DELETE`). Shown with a device chosen where a scenario answers; the note
 * says what answers it now. Draws on every change of `state` (the event stream's `devices` event
 * reads the devices again after a change made elsewhere).
 */
export function showDeviceSteering(state: DashboardState): void {
  const form = byId<HTMLFormElement>('device-scenario-form');
  const picker = byId<HTMLSelectElement>('device-scenario-picker');
  const status = byId('device-scenario-status');
  const follow = byId<HTMLButtonElement>('device-scenario-follow');
  const chosen = (): DeviceSummary | undefined =>
    state.selected === null || state.selected === NO_DEVICE ? undefined : state.device(state.selected);
  const done = (device: DeviceSummary, answer: { scenario: string | null; steered: boolean }) => {
    const said = answer.steered
      ? `${deviceLabel(device)} now answers from "${answer.scenario}"; the other devices are untouched.`
      : `${deviceLabel(device)} follows the server's scenario "${answer.scenario}" again.`;
    status.textContent = said;
    announce(said);
    return state.refresh();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const device = chosen();
    if (!device) return;
    admin
      .steerDevice(device.sdevid, picker.value)
      .then((answer) => done(device, answer))
      .catch((error: unknown) => (status.textContent = `Could not switch the device: ${messageOf(error)}`));
  });
  follow.addEventListener('click', () => {
    const device = chosen();
    if (!device) return;
    admin
      .unsteerDevice(device.sdevid)
      .then((answer) => done(device, answer))
      .catch((error: unknown) => (status.textContent = `Could not switch the device: ${messageOf(error)}`));
  });
  // What the picker was last set to show: a live update redraws often, and must not undo a pick not yet used.
  let shownFor: string | undefined;
  let shown: string | undefined;
  state.subscribe(() => {
    const device = chosen();
    form.hidden = !device || state.scenarios.length === 0 || device.scenario === null;
    if (form.hidden || !device) return;
    if (shownFor !== device.sdevid) status.textContent = '';
    render(
      state.scenarios.map((s) => html`<option value=${s.name}>${s.name}</option>`),
      picker,
    );
    const now = `${device.sdevid}\u0000${device.scenario}`;
    if (shown !== now) picker.value = device.scenario ?? '';
    shownFor = device.sdevid;
    shown = now;
    byId('device-scenario-label').textContent = `Scenario for ${deviceLabel(device)}`;
    byId('device-scenario-note').textContent =
      `Answers from ${scenarioOfDevice(device)}. A /scenarios/NAME prefix or an x-mockvideo-scenario header in a request still wins.`;
    follow.disabled = !device.steered;
  });
}
