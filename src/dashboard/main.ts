// The QA dashboard at /__mockvideo/: plain DOM drawn with lit-html templates, no framework. It reads the admin JSON API and
// listens to /__mockvideo/events (server-sent events) for new requests, scenario and fault changes,
// and device names. Everything it shows is drawn from one DashboardState.
import { ADMIN, admin, harUrl, messageOf, setAdminToken, type JournalEntry, type PlannedFault } from './api.js';
import { drawAnalytics } from './analytics.js';
import { applyFaultChanges, drawFaults, setUpFaultForm } from './fault-panel.js';
import { setActiveScenario, showScenarios } from './scenario-picker.js';
import { renderServer, scenariosAnswer } from './server-panel.js';
import { showVerify } from './verify-panel.js';
import { showFuzz } from './fuzz-panel.js';
import { openDetail } from './detail.js';
import { showDevices } from './devices.js';
import { showDeviceSteering } from './device-steering.js';
import { byId } from './dom.js';
import { announceRequest, drawRequests, focusRequest } from './requests.js';
import { DashboardState, MAX_ENTRIES } from './state.js';
import { drawTimeline } from './timeline.js';

const state = new DashboardState();
state.subscribe(drawRequests);
state.subscribe(drawTimeline);
state.subscribe(drawAnalytics);
showDevices(state);
showDeviceSteering(state);
setUpFaultForm(state);
showVerify(state);

/** Opens the detail of request `id` and marks its row. */
function open(id: number): void {
  state.opened = id;
  state.changed();
  void openDetail(state, id);
}

function closeDetail(): void {
  const id = state.opened;
  byId('detail').hidden = true;
  state.opened = undefined;
  state.changed();
  if (id !== undefined) focusRequest(id);
}

/** The journal was cleared (here or elsewhere): nothing to show. */
function cleared(): void {
  state.clearEntries();
  closeDetail();
}

function setConnection(status: 'connecting' | 'live' | 'reconnecting' | 'dropped', reason = ''): void {
  const element = byId('connection');
  element.dataset.state = status;
  element.textContent = {
    connecting: 'Connecting…',
    live: 'Live',
    reconnecting: 'Connection lost, reconnecting…',
    dropped: 'Live updates stopped: reload to see them again',
  }[status];
  element.title = reason;
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
  events.addEventListener('error', () => {
    if (events.readyState !== EventSource.CLOSED) setConnection('reconnecting');
  });
  // A newer stream took this one's slot (the server keeps a few per address): reconnecting would take another's back.
  events.addEventListener('dropped', (event) => {
    events.close();
    const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
    setConnection('dropped', reason);
    byId('page-status').textContent = reason;
  });
  const on = <T>(name: string, handle: (data: T) => void) =>
    events.addEventListener(name, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T));
  on<JournalEntry>('request', (entry) => {
    if (state.addEntry(entry)) announceRequest(state, entry);
  });
  on<{ name: string }>('scenario', ({ name }) => setActiveScenario(name));
  on<{ faults: PlannedFault[] }>('faults', ({ faults: planned }) => drawFaults(planned));
  on<{ changed: PlannedFault[]; removed: number[] }>('faults-changed', (changes) => {
    applyFaultChanges(changes);
    // The device cards list the faults aimed at each: read the devices again when those change.
    if (changes.removed.length || changes.changed.some((planned) => planned.device !== undefined)) state.refreshSoon();
  });
  events.addEventListener('devices', () => void state.refresh());
  events.addEventListener('cleared', cleared);
}

async function start(): Promise<void> {
  // A request's buttons (its row, its bar in the timeline) carry its id in `data-open`.
  document.addEventListener('click', (event) => {
    const id = (event.target as Element).closest<HTMLElement>('[data-open]')?.dataset.open;
    if (id !== undefined) open(Number(id));
  });
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
  if (health.fuzzing) showFuzz(state);
  showScenarios(scenarios.active, scenarios.scenarios);
  if (scenariosAnswer(health)) state.scenarios = scenarios.scenarios;
  state.pollAnalytics();
  connect();
}

start().catch(
  (error: unknown) => (byId('page-status').textContent = `The dashboard could not start: ${messageOf(error)}`),
);
