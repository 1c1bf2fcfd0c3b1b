// The QA dashboard at /__mockvideo/: plain DOM drawn with lit-html templates, no framework. It reads the admin JSON API and
// listens to /__mockvideo/events (server-sent events) for new requests, scenario and fault changes,
// and device names. Everything it shows is drawn from one DashboardState.
import { ADMIN, admin, harUrl, messageOf, setAdminToken, type JournalEntry, type PlannedFault } from './api.js';
import { AnalyticsTable } from './analytics.js';
import { FaultPanel } from './fault-panel.js';
import { ScenarioPicker } from './scenario-picker.js';
import { renderServer } from './server-panel.js';
import { VerifyPanel } from './verify-panel.js';
import { RequestDetailView } from './detail.js';
import { DevicePanel } from './devices.js';
import { byId } from './dom.js';
import { RequestTable } from './requests.js';
import { DashboardState, MAX_ENTRIES } from './state.js';
import { Timeline } from './timeline.js';

const state = new DashboardState();
const detail = new RequestDetailView(state);
const open = (id: number) => {
  table.mark(id);
  void detail.open(id);
};
const table = new RequestTable(state, open);
new DevicePanel(state);
new Timeline(state, open);
new AnalyticsTable(state);
const picker = new ScenarioPicker();
const faults = new FaultPanel();
const verify = new VerifyPanel(() => state.selected);
state.subscribe(() => verify.soon());

function closeDetail(): void {
  const id = detail.shown;
  detail.close();
  table.mark(undefined);
  if (id !== undefined) table.focus(id);
}

/** The journal was cleared (here or elsewhere): nothing to show. */
function cleared(): void {
  state.clearEntries();
  closeDetail();
}

function setConnection(status: 'connecting' | 'live' | 'reconnecting'): void {
  const element = byId('connection');
  element.dataset.state = status;
  element.textContent = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Connection lost, reconnecting…' }[
    status
  ];
}

function connect(): void {
  setConnection('connecting');
  const events = new EventSource(`${ADMIN}/events`);
  events.addEventListener('open', () => {
    // At start and after a reconnect: read the journal, so nothing sent meanwhile is missed.
    admin.requests(MAX_ENTRIES).then(
      ({ requests }) => {
        state.replaceEntries(requests);
        setConnection('live');
      },
      (error: unknown) => (byId('page-status').textContent = messageOf(error)),
    );
  });
  events.addEventListener('error', () => setConnection('reconnecting'));
  const on = <T>(name: string, handle: (data: T) => void) =>
    events.addEventListener(name, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T));
  on<JournalEntry>('request', (entry) => {
    if (state.addEntry(entry)) table.announce(entry);
  });
  on<{ name: string }>('scenario', ({ name }) => picker.setActive(name));
  on<{ faults: PlannedFault[] }>('faults', ({ faults: planned }) => faults.render(planned));
  events.addEventListener('devices', () => void state.refresh());
  events.addEventListener('cleared', cleared);
}

async function start(): Promise<void> {
  byId('detail-close').addEventListener('click', closeDetail);
  byId('detail').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeDetail();
  });
  byId('clear-journal').addEventListener('click', () => {
    admin
      .clearRequests()
      .then(
        cleared,
        (error: unknown) => (byId('page-status').textContent = `Could not clear the journal: ${messageOf(error)}`),
      );
  });
  byId<HTMLAnchorElement>('all-har').href = harUrl({});
  byId('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>('admin-token');
    setAdminToken(input.value.trim());
    byId('token-status').textContent = input.value.trim() ? 'Saved: buttons now send it.' : 'Cleared.';
    input.value = '';
  });
  // A refused change from another device: show where the token goes.
  window.addEventListener('mockvideo:forbidden', () => {
    byId<HTMLDetailsElement>('token-box').open = true;
    byId('token-status').textContent = 'mockvideo refused the change: this device needs the admin token.';
  });
  const [health, scenarios] = await Promise.all([admin.health(), admin.scenarios()]);
  state.mode = health.mode;
  renderServer(health);
  picker.load(scenarios.active, scenarios.scenarios);
  state.pollAnalytics();
  connect();
}

start().catch(
  (error: unknown) => (byId('page-status').textContent = `The dashboard could not start: ${messageOf(error)}`),
);
