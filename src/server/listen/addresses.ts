import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { textTable } from '../../text-table.js';

/** The address of the host's loopback inside the Android emulator. */
export const ANDROID_EMULATOR_HOST = '10.0.2.2';

/** True for a bind address that listens on every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** True for a loopback bind address (`127.x.x.x`, `::1`, `localhost`). */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * The addresses of this machine on its networks that a device may use, from
 * `os.networkInterfaces()`, as `[interface name, address]` pairs: of `family` IPv4 (default), not
 * loopback nor link-local (`169.254.0.0/16`); of IPv6, not loopback nor link-local (`fe80::/10`,
 * which needs an interface name a URL cannot carry well).
 */
export function lanAddresses(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
  family: 'IPv4' | 'IPv6' = 'IPv4',
): Array<[string, string]> {
  const linkLocal = family === 'IPv4' ? /^169\.254\./ : /^fe[89ab]/i;
  return Object.entries(interfaces).flatMap(([name, infos]) =>
    (infos ?? [])
      .filter((info) => info.family === family && !info.internal && !linkLocal.test(info.address))
      .map((info): [string, string] => [name, info.address]),
  );
}

/** One way a device reaches the server: who uses it, and the URL or hint. */
export interface DeviceUrl {
  label: string;
  url: string;
  /** Extra instruction, e.g. the `adb reverse` command. */
  hint?: string;
}

/**
 * Every URL a device can use to reach a server bound to `host:port` with `scheme`:
 * this machine; each LAN address (when bound to all interfaces or to that address); the Android
 * emulator's `10.0.2.2` (which is the host's loopback, so it works unless bound to a LAN address
 * only); a USB phone through `adb reverse tcp:PORT tcp:PORT`; the iOS simulator (shares the host's network).
 *
 * @example deviceUrls('0.0.0.0', 8787, 'http') // [{ label: 'this machine', url: 'http://127.0.0.1:8787' }, …]
 */
export function deviceUrls(
  host: string,
  port: number,
  scheme: 'http' | 'https',
  lan: Array<[string, string]> = lanAddresses(),
): DeviceUrl[] {
  const wildcard = isWildcardHost(host);
  const loopback = wildcard || isLoopbackHost(host);
  const url = (h: string) => `${scheme}://${h.includes(':') ? `[${h}]` : h}:${port}`;
  const local = url(wildcard || host === 'localhost' ? '127.0.0.1' : host);
  const urls: DeviceUrl[] = [{ label: 'this machine', url: local }];
  if (wildcard) for (const [name, address] of lan) urls.push({ label: `LAN (${name})`, url: url(address) });
  else if (!loopback) urls.push({ label: 'LAN', url: url(host) });
  if (loopback) {
    urls.push({ label: 'Android emulator', url: url(ANDROID_EMULATOR_HOST) });
    urls.push({ label: 'USB phone', url: url('127.0.0.1'), hint: `run "adb reverse tcp:${port} tcp:${port}" first` });
    urls.push({ label: 'iOS simulator', url: local });
  }
  return urls;
}

/** The lines `serve` prints for {@link deviceUrls}, aligned: `  Android emulator: http://10.0.2.2:8787`. */
export function formatDeviceUrls(urls: readonly DeviceUrl[]): string[] {
  return textTable(
    urls.map((u) => [`${u.label}:`, `${u.url}${u.hint ? `  (${u.hint})` : ''}`]),
    ' ',
  ).map((line) => `  ${line}`);
}
