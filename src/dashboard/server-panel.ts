import type { Health } from './api.js';
import { byId, copyButton, fill, h } from './dom.js';

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
