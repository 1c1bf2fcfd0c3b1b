import { html, render } from 'lit-html';
import { createRef, ref } from 'lit-html/directives/ref.js';
import { admin, messageOf, type ScenarioSummary } from './api.js';
import { announce, byId, copyButton } from './dom.js';

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
    render(
      scenarios.map((s) => html`<option value=${s.name}>${s.name}</option>`),
      this.#select,
    );
    render(scenarios.map(baseUrl), byId('base-urls'));
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
