import { describe, expect, it } from 'vitest';
import { createRoutes } from '../routes/plan.js';
import { ScenarioResponder } from '../routes/responder.js';
import { shippedCatalog } from '../scenarios/shipped-catalog.js';
import { clientOfDevice, deviceOfClient } from './client-state.js';
import { DeviceScenarios, steerableClient } from './device-scenarios.js';

/** The most devices with a scenario of their own: docs/device-state.md, docs/admin-api.md (429 past it). */
const MAX_STEERED_DEVICES = 1000;

describe('naming a device', () => {
  it('takes an _sdevid, or a name clientOf gives as it is, and gives it back as people name it', () => {
    expect(clientOfDevice('ab12')).toBe('sdevid:ab12');
    for (const name of ['anoyid:u1', 'address:10.0.2.16', 'address:::1', 'sdevid:ab12', 'unknown'])
      expect(clientOfDevice(name)).toBe(name);
    expect(deviceOfClient('sdevid:ab12')).toBe('ab12');
    expect(deviceOfClient('anoyid:u1')).toBe('anoyid:u1');
    expect(() => steerableClient('')).toThrow(/1 to 512 characters, no control character; got 0 characters\.$/);
    expect(() => steerableClient('f'.repeat(513))).toThrow(/got 513 characters starting "ffffffffffff"\.$/);
    expect(() => steerableClient('ab\u001b[2J')).toThrow(/got 6 characters starting "ab\\u001b\[2J"\.$/);
  });
});

describe('DeviceScenarios', () => {
  it('gives the scenario of the device a request comes from, and none to the others', () => {
    const steered = new DeviceScenarios();
    expect(steered.of({ query: '_sdevid=ab12' })).toBeUndefined();
    steered.set('sdevid:ab12', 'gallery');
    steered.set('address:10.0.2.16', 'flaky');
    expect(steered.of({ query: '_ts=1&_sdevid=ab12' })).toBe('gallery');
    expect(steered.of({ query: '_sdevid=cd34' })).toBeUndefined();
    expect(steered.of({ query: '_ts=1', address: '10.0.2.16' })).toBe('flaky');
    expect(steered.list()).toEqual([
      { device: 'ab12', scenario: 'gallery' },
      { device: 'address:10.0.2.16', scenario: 'flaky' },
    ]);
    expect(steered.delete('sdevid:ab12')).toBe(true);
    expect(steered.delete('sdevid:ab12')).toBe(false);
    expect(steered.of({ query: '_sdevid=ab12' })).toBeUndefined();
    expect(steered.version).toBe(3);
  });

  it(`keeps at most ${MAX_STEERED_DEVICES} devices, and says how to make room`, () => {
    const steered = new DeviceScenarios();
    for (let n = 0; n < MAX_STEERED_DEVICES; n++) steered.set(`sdevid:d${n}`, 'gallery');
    steered.set('sdevid:d0', 'flaky');
    expect(() => steered.set('sdevid:one-more', 'gallery')).toThrow(/DELETE \/__mockvideo\/devices\/SDEVID\/scenario/);
  });
});

describe('which scenario answers (scenarioOf, through the routes)', () => {
  const steered = new DeviceScenarios();
  steered.set('sdevid:ab12', 'gallery');
  const routes = createRoutes({
    scenarios: {
      responder: new ScenarioResponder(shippedCatalog()),
      activeScenario: () => 'default',
      deviceScenario: (request) => steered.of(request),
    },
  });
  const scenarioOf = async (path: string, query: string, headers: Record<string, string> = {}) =>
    (
      await routes({
        method: 'GET',
        path,
        query,
        origin: 'http://127.0.0.1',
        headers: { host: '127.0.0.1', ...headers },
      })
    ).scenario;

  it.each([
    ['/api/g1/meta/cp', '_sdevid=ab12', {}, 'gallery'],
    ['/api/g1/meta/cp', '_sdevid=cd34', {}, 'default'],
    ['/scenarios/flaky/api/g1/meta/cp', '_sdevid=ab12', {}, 'flaky'],
    ['/api/g1/meta/cp', '_sdevid=ab12', { 'x-mockvideo-scenario': 'i18n-stress' }, 'i18n-stress'],
    ['/scenarios/flaky/api/g1/meta/cp', '_sdevid=ab12', { 'x-mockvideo-scenario': 'i18n-stress' }, 'i18n-stress'],
    ['/api/g1/meta/upgrade', '_sdevid=ab12', {}, 'gallery'],
  ])('%s?%s %o: %s', async (path, query, headers, expected) => {
    expect(await scenarioOf(path, query, headers)).toBe(expected);
  });
});
