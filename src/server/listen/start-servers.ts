import type { RequestListener } from 'node:http';
import { MockvideoError } from '../../errors.js';
import {
  ANDROID_EMULATOR_HOST,
  deviceUrls,
  formatDeviceUrls,
  isWildcardHost,
  lanAddresses,
  type DeviceUrl,
} from './addresses.js';
import { listen, serveOn, serverOptions, type RunningServer } from './listen.js';

/** How `serve` listens: HTTP, HTTPS, or both side by side. */
export interface ListenPlan {
  port: number;
  host: string;
  /** Serve TLS (`--https`). Without `httpsPort`, TLS replaces HTTP on `port`. */
  https?: boolean;
  /** Also serve TLS on this port, HTTP staying on `port` (`--https-port`; implies `https`). */
  httpsPort?: number;
  /** PEM files to use instead of a generated certificate (`--cert`, `--key`; imply `https`). */
  certFile?: string;
  keyFile?: string;
  /** Where generated certificates are kept; default `mockvideoHome()`. */
  certDir?: string;
}

/** The servers `serve` started: the first one's URL is printed first; `lines` tell devices how to reach them, `deviceUrls` the same as data. */
export interface StartedServers {
  url: string;
  lines: string[];
  deviceUrls: DeviceUrl[];
  /** Warnings for stderr: an HTTPS URL left out because the certificate does not name its host. */
  warnings: string[];
  /** Closes every server, letting requests in flight finish for up to `graceMs` milliseconds (default 2,000). */
  close(graceMs?: number): Promise<void>;
}

/** The names a generated certificate must cover: localhost, loopback, the emulator's host address, the LAN addresses (IPv4 and IPv6) and `host`. */
function certificateHosts(host: string): string[] {
  const lan = [...lanAddresses(), ...lanAddresses(undefined, 'IPv6')].map(([, address]) => address);
  const hosts = ['localhost', '127.0.0.1', '::1', ANDROID_EMULATOR_HOST, ...lan];
  return [...new Set(isWildcardHost(host) ? hosts : [...hosts, host])];
}

/**
 * Starts what `plan` asks for: HTTP on `port`; or HTTPS on `port`; or HTTP on `port` and HTTPS on
 * `httpsPort`. HTTPS uses `--cert`/`--key`, else a certificate from `ensureCertificate`. node:https,
 * node:tls, node:crypto and the certificate code load only when TLS is asked for.
 *
 * @throws MockvideoError (`MV_USAGE`) for `--cert` without `--key` (or the reverse) or an unreadable file.
 * @throws MockvideoError (`MV_USAGE`) for a port in use or not allowed, or a host this machine does not have (see `listenFailure`).
 */
export async function startServers(app: RequestListener, plan: ListenPlan): Promise<StartedServers> {
  if ((plan.certFile === undefined) !== (plan.keyFile === undefined)) {
    throw new MockvideoError(
      'MV_USAGE',
      `${plan.certFile === undefined ? '--key needs --cert' : '--cert needs --key'}: give both PEM files (e.g. from "mkcert localhost 10.0.2.2"), or neither to use a generated certificate.`,
    );
  }
  const wantsTls = plan.https || plan.httpsPort !== undefined || plan.certFile !== undefined;
  const certs = wantsTls ? await import('./tls-certificate.js') : undefined;
  const tls =
    certs && plan.certFile !== undefined
      ? certs.readCertificateFiles(plan.certFile, plan.keyFile!)
      : await certs?.ensureCertificate(certificateHosts(plan.host), plan.certDir);
  const servers: Array<Omit<RunningServer, 'server'> & { scheme: 'http' | 'https' }> = [];
  try {
    if (!tls || plan.httpsPort !== undefined)
      servers.push({ ...(await listen(app, plan.port, plan.host)), scheme: 'http' });
    if (tls) {
      const https = (await import('node:https')).createServer(
        { ...serverOptions(), cert: tls.cert, key: tls.key },
        app,
      );
      const flag = plan.httpsPort !== undefined ? '--https-port' : '--port';
      servers.push({
        ...(await serveOn(https, plan.httpsPort ?? plan.port, plan.host, 'https', flag)),
        scheme: 'https',
      });
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  const lines: string[] = [];
  const urls: DeviceUrl[] = [];
  const warnings: string[] = [];
  for (const server of servers) {
    let ofServer = deviceUrls(plan.host, server.port, server.scheme);
    if (server.scheme === 'https' && tls) {
      // A URL whose host the certificate does not name would only give the device a certificate error.
      const unnamed = ofServer.filter((u) => !certs!.certificateNames(tls.cert, new URL(u.url).hostname));
      for (const host of new Set(unnamed.map((u) => new URL(u.url).hostname))) {
        const of = unnamed.filter((u) => new URL(u.url).hostname === host);
        warnings.push(
          `Warning: the certificate ${tls.certFile} does not name ${host}, so ${of.map((u) => u.label).join(', ')} (${of[0]!.url}) would get a certificate error: not listed. ` +
            `Add ${host} to the certificate (e.g. "mkcert localhost 127.0.0.1 ${host.replace(/^\[|\]$/g, '')}"), or leave out --cert and --key to use a generated one.`,
        );
      }
      ofServer = ofServer.filter((u) => !unnamed.includes(u));
    }
    urls.push(...ofServer);
    lines.push(`  ${server.scheme.toUpperCase()} — devices reach it at:`);
    if (ofServer.length) lines.push(...formatDeviceUrls(ofServer).map((l) => `  ${l}`));
  }
  if (tls) {
    lines.push(`  certificate: ${tls.certFile}${tls.generated ? ' (new)' : ''}`);
    if (tls.caFile) lines.push(`  to trust it on a device, install the CA once: ${tls.caFile}`);
  }
  if (!isWildcardHost(plan.host)) lines.push('  for a phone on the same network, serve with --host 0.0.0.0');
  return {
    url: servers[0]!.url,
    lines,
    deviceUrls: urls,
    warnings,
    close: async (graceMs?: number) => void (await Promise.all(servers.map((s) => s.close(graceMs)))),
  };
}
