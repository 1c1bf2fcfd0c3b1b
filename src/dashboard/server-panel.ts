import { html, render } from 'lit-html';
import { createRef, ref } from 'lit-html/directives/ref.js';
import type { DeviceUrl, Health } from './api.js';
import { byId, copyButton, facts } from './dom.js';
import { detailLabel, deviceUrls } from './format.js';

/** Whether a scenario answers devices: always in `serve`, in `replay` only as the fallback, never in `record`. */
export function scenariosAnswer(health: Health): boolean {
  return health.mode === 'serve' || (health.mode === 'replay' && typeof health.fallbackScenario === 'string');
}

/**
 * What a server fact of `GET /health` means, shown beside its value, for the facts whose name does
 * not say it: `scenariosVersion` and `state`.
 */
function detailHint(key: string, value: unknown): string | undefined {
  if (key === 'scenariosVersion')
    return '1 at start, one more for each reload of the scenario files (serve --watch reloads them when they change)';
  if (key === 'state')
    return value === 'global'
      ? 'one set of sequences and fault counts for the whole server (--state global)'
      : 'sequences and fault counts are kept per device (_sdevid, else _anoyid, else its address); its next start-up starts them again (--state client)';
  return undefined;
}

/**
 * Shows the mode, its details (with what the unclear ones mean, see {@link detailHint}) and the device URLs. The header names what answers: the scenario in
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
  const scenario = scenariosAnswer(health);
  byId('scenario-pill').hidden = !scenario;
  byId('scenario-pill-label').textContent = health.mode === 'replay' ? 'fallback scenario' : 'scenario';
  byId('scenario-section').hidden = !scenario;
  const sources: Partial<Record<Health['mode'], [string, unknown]>> = {
    replay: ['recordings', health.recordings],
    record: ['upstream', health.upstream],
  };
  const source = sources[health.mode];
  byId('source-pill').hidden = !source;
  if (source) render(html`${source[0]} <strong>${String(source[1] ?? '?')}</strong>`, byId('source-pill'));
  render(
    facts([
      ['Mode', health.mode],
      ...details.map(([key, value]) => {
        const hint = detailHint(key, value);
        return [
          detailLabel(key),
          html`<code>${value}</code>${hint ? html`<span class="hint">${hint}</span>` : ''}`,
        ] as const;
      }),
    ]),
    byId('server-details'),
  );
  render(deviceUrls(health, window.location).map(deviceUrl), byId('device-urls'));
}

function deviceUrl({ label, url, hint }: DeviceUrl) {
  const code = createRef<HTMLElement>();
  return html`<li>
    <span class="label">${label}</span>
    <span class="url"><code ${ref(code)}>${url}</code> ${copyButton(url, code, `${label} URL`)}</span>
    ${hint && html`<span class="hint">${hint}</span>`}
  </li>`;
}
