// The QA dashboard at /__mockvideo/: plain DOM, no framework. It reads the admin JSON API and
// listens to /__mockvideo/events (server-sent events) for new requests, scenario and fault changes.
import { ADMIN, admin, messageOf, setAdminToken, type JournalEntry, type PlannedFault } from './api.js';
import { byId } from './dom.js';
import { FaultPanel, renderServer, ScenarioPicker, VerifyPanel } from './controls.js';
import { RequestList } from './requests.js';

const requests = new RequestList();
const picker = new ScenarioPicker();
const faults = new FaultPanel();
const verify = new VerifyPanel();
requests.onChange = () => verify.soon();

function setConnection(state: 'connecting' | 'live' | 'reconnecting'): void {
  const element = byId('connection');
  element.dataset.state = state;
  element.textContent = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Connection lost, reconnecting…' }[state];
}

function connect(): void {
  setConnection('connecting');
  const events = new EventSource(`${ADMIN}/events`);
  events.addEventListener('open', () => {
    // At start and after a reconnect: read the journal, so nothing sent meanwhile is missed.
    admin.requests().then(
      ({ requests: entries }) => {
        requests.replaceAll(entries);
        setConnection('live');
      },
      (error: unknown) => (byId('page-status').textContent = messageOf(error)),
    );
  });
  events.addEventListener('error', () => setConnection('reconnecting'));
  events.addEventListener('request', (event) => requests.add(JSON.parse((event as MessageEvent<string>).data) as JournalEntry));
  events.addEventListener('scenario', (event) => picker.setActive((JSON.parse((event as MessageEvent<string>).data) as { name: string }).name));
  events.addEventListener('faults', (event) => faults.render((JSON.parse((event as MessageEvent<string>).data) as { faults: PlannedFault[] }).faults));
  events.addEventListener('cleared', () => requests.clear());
}

async function start(): Promise<void> {
  byId('detail-close').addEventListener('click', () => requests.close());
  byId('detail').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') requests.close();
  });
  byId('clear-journal').addEventListener('click', () => {
    admin.clearRequests().then(
      () => requests.clear(),
      (error: unknown) => (byId('page-status').textContent = `Could not clear the journal: ${messageOf(error)}`),
    );
  });
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
  renderServer(health);
  picker.load(scenarios.active, scenarios.scenarios);
  connect();
}

start().catch((error: unknown) => (byId('page-status').textContent = `The dashboard could not start: ${messageOf(error)}`));
