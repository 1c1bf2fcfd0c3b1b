import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { MockvideoError } from '../../errors.js';

/** A certificate and key to serve TLS with, and where they are on disk. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** The file of the server certificate. */
  certFile: string;
  keyFile: string;
  /** The file of the CA to install on a device (generated certificates only). */
  caFile?: string;
  /** True when this start generated a new server certificate. */
  generated: boolean;
}

/**
 * The folder where mockvideo keeps its generated certificates: `$MOCKVIDEO_HOME`, else
 * `$XDG_CONFIG_HOME/mockvideo`, else `~/.mockvideo`.
 */
export function mockvideoHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MOCKVIDEO_HOME) return env.MOCKVIDEO_HOME;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mockvideo');
  return join(homedir(), '.mockvideo');
}

const DAY_MS = 86_400_000;

/**
 * The IPv6 addresses of this machine on its networks that a device may use (not loopback, not
 * link-local `fe80::/10`, which needs an interface name a URL cannot carry well), for a generated
 * certificate to name beside the IPv4 ones.
 */
export function ipv6LanAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const out: string[] = [];
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family === 'IPv6' && !info.internal && !/^fe[89ab]/i.test(info.address) && !out.includes(info.address))
        out.push(info.address);
    }
  }
  return out;
}

/**
 * True when the server certificate of `pem` (the first certificate of a chain) names `host`, a DNS
 * name or an IP address (IPv6 with or without brackets), read with node's `X509Certificate`: a
 * device that connects to `https://<host>` then gets no name error. False for text that is not a
 * certificate.
 */
export function certificateNames(pem: string, host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '');
  try {
    const cert = new X509Certificate(pem);
    return (isIP(name) ? cert.checkIP(name) : cert.checkHost(name)) !== undefined;
  } catch {
    return false;
  }
}

/** True when `pem` is a certificate valid for at least another day that names every host of `hosts`. */
function stillGood(pem: string, hosts: readonly string[], caPem?: string): boolean {
  try {
    const cert = new X509Certificate(pem);
    if (Date.parse(cert.validTo) - Date.now() < DAY_MS) return false;
    if (caPem && !cert.verify(new X509Certificate(caPem).publicKey)) return false;
    return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h) !== undefined));
  } catch {
    return false;
  }
}

/** The server certificate followed by its CA, one PEM block a line apart. */
function chain(...pems: string[]): string {
  return pems.map((p) => `${p.trim()}\n`).join('');
}

function write(file: string, text: string, secret = false): void {
  writeFileSync(file, text);
  if (secret) chmodSync(file, 0o600);
}

/**
 * A server certificate for `hosts` (DNS names and IP addresses), signed by a local "mockvideo
 * development CA", both kept in `dir` (default {@link mockvideoHome}): `ca.pem` / `ca-key.pem` (valid
 * 10 years: install `ca.pem` on a device once) and `cert.pem` / `key.pem` (valid 365 days). Both are
 * reused while valid; the server certificate is made again when it expires within a day or does not
 * name every host (e.g. a new LAN address). Keys are EC P-256, signatures SHA-256 (library `selfsigned`).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` cannot be written.
 */
export async function ensureCertificate(hosts: readonly string[], dir: string = mockvideoHome()): Promise<TlsMaterial> {
  // Loaded on first use: most servers never generate a certificate.
  const { generate } = await import('selfsigned');
  const caFile = join(dir, 'ca.pem');
  const caKeyFile = join(dir, 'ca-key.pem');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  try {
    mkdirSync(dir, { recursive: true });
    let ca =
      existsSync(caFile) && existsSync(caKeyFile)
        ? { cert: readFileSync(caFile, 'utf8'), key: readFileSync(caKeyFile, 'utf8') }
        : undefined;
    if (!ca || !stillGood(ca.cert, [])) {
      const made = await generate(
        [
          { name: 'commonName', value: 'mockvideo development CA' },
          { name: 'organizationName', value: 'mockvideo' },
        ],
        {
          keyType: 'ec',
          algorithm: 'sha256',
          notAfterDate: new Date(Date.now() + 3650 * DAY_MS),
          extensions: [
            { name: 'basicConstraints', cA: true, critical: true },
            { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
          ],
        },
      );
      ca = { cert: made.cert, key: made.private };
      write(caFile, `${ca.cert.trim()}\n`);
      write(caKeyFile, ca.key, true);
    }
    if (existsSync(certFile) && existsSync(keyFile)) {
      const cert = readFileSync(certFile, 'utf8');
      if (stillGood(cert, hosts, ca.cert))
        return {
          cert: chain(cert, ca.cert),
          key: readFileSync(keyFile, 'utf8'),
          certFile,
          keyFile,
          caFile,
          generated: false,
        };
    }
    const made = await generate([{ name: 'commonName', value: 'mockvideo' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 365 * DAY_MS),
      ca,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: hosts.map((h) => (isIP(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h })),
        },
      ],
    });
    write(certFile, `${made.cert.trim()}\n`);
    write(keyFile, made.private, true);
    return { cert: chain(made.cert, ca.cert), key: made.private, certFile, keyFile, caFile, generated: true };
  } catch (error) {
    if (error instanceof MockvideoError) throw error;
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot create the HTTPS certificate in ${dir}: ${(error as Error).message}. Set MOCKVIDEO_HOME to a writable folder, or pass --cert FILE --key FILE.`,
    );
  }
}

/**
 * Reads a certificate and key given with `--cert` / `--key` (PEM files, e.g. from mkcert).
 * @throws MockvideoError (`MV_USAGE`) naming the flag when a file is missing, unreadable or not PEM.
 */
export function readCertificateFiles(certFile: string, keyFile: string): TlsMaterial {
  const read = (flag: string, file: string, marker: RegExp) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new MockvideoError(
        'MV_USAGE',
        `${flag} ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give the path of a PEM file, e.g. one made by "mkcert localhost 10.0.2.2".`,
      );
    }
    if (!marker.test(text))
      throw new MockvideoError(
        'MV_USAGE',
        `${flag} ${file}: not a PEM file (no "-----BEGIN ...-----" block of the right kind).`,
      );
    return text;
  };
  const cert = read('--cert', certFile, /-----BEGIN CERTIFICATE-----/);
  const key = read('--key', keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  return { cert, key, certFile, keyFile, generated: false };
}
