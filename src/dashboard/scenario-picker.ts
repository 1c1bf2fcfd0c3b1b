import { html, render } from 'lit-html';
import { createRef, ref } from 'lit-html/directives/ref.js';
import { admin, messageOf, type ScenarioSummary } from './api.js';
import { announce, byId, copyButton } from './dom.js';

/** The scenarios of `GET /scenarios`, and the one active for every client without a prefix. */
let scenarios: ScenarioSummary[] = [];
let active = '';

function describe(): void {
  const chosen = scenarios.find((s) => s.name === byId<HTMLSelectElement>('scenario-picker').value);
  byId('scenario-description').textContent = chosen
    ? `${chosen.description}${chosen.extends ? ` (extends ${chosen.extends})` : ''}`
    : '';
}

/** Shows `name` as the active scenario (the event stream says when it changes). */
export function setActiveScenario(name: string): void {
  const changed = active !== '' && active !== name;
  active = name;
  byId('active-scenario').textContent = name;
  const select = byId<HTMLSelectElement>('scenario-picker');
  if (document.activeElement !== select) select.value = name;
  describe();
  if (changed) announce(`Scenario for all clients is now ${name}`);
}

/** Sets up the scenario picker (for every client without a prefix) and the per-client base URLs from `GET /scenarios`. */
export function showScenarios(activeName: string, list: ScenarioSummary[]): void {
  scenarios = list;
  const select = byId<HTMLSelectElement>('scenario-picker');
  render(
    list.map((s) => html`<option value=${s.name}>${s.name}</option>`),
    select,
  );
  render(list.map(baseUrl), byId('base-urls'));
  setActiveScenario(activeName);
  select.addEventListener('change', describe);
  byId('scenario-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const status = byId('scenario-status');
    admin.useScenario(select.value).then(
      ({ name }) => {
        setActiveScenario(name);
        status.textContent = `Devices without a scenario of their own or a /scenarios prefix now get "${name}".`;
      },
      (error: unknown) => (status.textContent = `Could not switch: ${messageOf(error)}`),
    );
  });
}

/** A row of the base URL table: the URL that picks scenario `name` for one client. */
function baseUrl({ name }: ScenarioSummary) {
  const url = `${window.location.origin}/scenarios/${encodeURIComponent(name)}`;
  const code = createRef<HTMLElement>();
  return html`<tr>
    <th scope="row">${name}</th>
    <td><code ${ref(code)}>${url}</code></td>
    <td>${copyButton(url, code, `base URL of ${name}`)}</td>
  </tr>`;
}
