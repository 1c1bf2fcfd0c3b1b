import { hostname, networkInterfaces } from 'node:os';

/**
 * Who may reach what: loopback and admin-token checks, and the `Host`/`Origin` check that keeps
 * foreign pages (cross-site requests, DNS rebinding) away from the admin API and the recorder.
 * No Express: the device host uses it too.
 * @module
 */

/** True for a loopback address (`127.0.0.0/8`, `::1`, or either mapped into IPv6). */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d+\.\d+\.\d+$/.test(plain);
}

/**
 * Whether a mutating admin call may go ahead: always from loopback; from any other address only
 * when an admin token is configured and the call sends it as `Authorization: Bearer <token>`.
 */
export function mayMutate(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  adminToken: string | undefined,
): boolean {
  if (isLoopback(remoteAddress)) return true;
  return adminToken !== undefined && authorization === `Bearer ${adminToken}`;
}

/** The host name of a `Host` header (`[::1]:8787` → `::1`, `Example.local:80` → `example.local`). */
function hostName(host: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(host) ?? /^([^:]+)(?::\d+)?$/.exec(host);
  return (m ? m[1]! : host).toLowerCase();
}

/**
 * The host names this server answers to: loopback names and addresses, every address of this
 * machine's interfaces, its host name, and the emulator aliases of the host (`10.0.2.2`,
 * `10.0.3.2`), and the names of `--allow-host` (`allowed`, e.g. `mockvideo.test` or `10.0.0.5:8787`).
 * A `Host` outside this list is a DNS-rebinding attempt.
 */
export function ownHostNames(allowed: readonly string[] = []): Set<string> {
  const names = new Set([
    'localhost',
    '127.0.0.1',
    '::1',
    '10.0.2.2',
    '10.0.3.2',
    hostname().toLowerCase(),
    `${hostname().toLowerCase()}.local`,
    ...allowed.map((name) => hostName(name)),
  ]);
  for (const list of Object.values(networkInterfaces()))
    for (const info of list ?? []) names.add(info.address.toLowerCase());
  return names;
}

/**
 * Why a request to the admin API comes from somewhere it must not, or `undefined`: a `Host` that is
 * not a name of this server (DNS rebinding), or an `Origin` other than the server's own (a web page
 * open in the QA person's browser). Requests without `Origin` (curl, tests, the app) pass.
 */
export function foreignRequest(
  host: string | undefined,
  origin: string | undefined,
  own: ReadonlySet<string>,
): string | undefined {
  if (!host) return 'a request without a Host header';
  const name = hostName(host);
  if (!own.has(name) && !/^127\.\d+\.\d+\.\d+$/.test(name)) return `Host "${host}" is not a name of this server`;
  if (origin !== undefined) {
    let originHost: string;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      return `Origin "${origin}" is not mockvideo's own`;
    }
    if (originHost !== host.toLowerCase()) return `Origin "${origin}" is not mockvideo's own (${host})`;
  }
  return undefined;
}

/**
 * Why a browser's request to the admin API comes from another site, or `undefined`: its
 * `Sec-Fetch-Site` is `cross-site` or `same-site` (a page elsewhere, or a sandboxed document of
 * mockvideo's own origin, which is opaque and so cross-site), except a top-level navigation (`GET`
 * with `Sec-Fetch-Mode: navigate`: following a link to the dashboard). `same-origin` and `none`
 * (typed in the address bar) pass, as do tools that send no such header.
 */
export function crossSiteFetch(site: string | undefined, mode: string | undefined, method: string): string | undefined {
  if (site !== 'cross-site' && site !== 'same-site') return undefined;
  if (method === 'GET' && mode === 'navigate') return undefined;
  return `a ${site} request (Sec-Fetch-Site: ${site})`;
}
