import { describe, expect, it } from 'vitest';
import type { NetworkInterfaceInfo } from 'node:os';
import { deviceUrls, formatDeviceUrls, lanAddresses } from './addresses.js';

const LAN: Array<[string, string]> = [['wlan0', '192.168.1.20']];

describe('deviceUrls', () => {
  it('on all interfaces: loopback, each LAN address, the Android emulator and the adb reverse hint', () => {
    const urls = deviceUrls('0.0.0.0', 8787, 'http', LAN);
    expect(urls.map((u) => u.url)).toEqual([
      'http://127.0.0.1:8787',
      'http://192.168.1.20:8787',
      'http://10.0.2.2:8787',
      'http://127.0.0.1:8787',
      'http://127.0.0.1:8787',
    ]);
    expect(urls.find((u) => u.label === 'USB phone')?.hint).toBe('run "adb reverse tcp:8787 tcp:8787" first');
  });

  it('on loopback: no LAN address, but the emulator (10.0.2.2 is the host loopback) and USB still work', () => {
    const urls = deviceUrls('127.0.0.1', 9000, 'https', LAN);
    expect(urls.map((u) => u.url)).not.toContain('https://192.168.1.20:9000');
    expect(urls.map((u) => u.url)).toContain('https://10.0.2.2:9000');
  });

  it('on one LAN address: only that address', () => {
    expect(deviceUrls('192.168.1.20', 1, 'http', LAN).map((u) => u.url)).toEqual([
      'http://192.168.1.20:1',
      'http://192.168.1.20:1',
    ]);
  });

  it('formats aligned lines', () => {
    expect(formatDeviceUrls(deviceUrls('0.0.0.0', 8787, 'http', LAN))[2]).toBe(
      '  Android emulator: http://10.0.2.2:8787',
    );
  });

  it('lists IPv4 addresses that are neither internal nor link-local', () => {
    const info = (address: string, internal = false, family: 'IPv4' | 'IPv6' = 'IPv4') =>
      ({ address, internal, family, netmask: '', mac: '', cidr: null, scopeid: 0 }) as NetworkInterfaceInfo;
    expect(
      lanAddresses({
        lo: [info('127.0.0.1', true)],
        eth0: [info('10.1.2.3'), info('fe80::1', false, 'IPv6'), info('169.254.1.1')],
      }),
    ).toEqual([['eth0', '10.1.2.3']]);
  });
});
