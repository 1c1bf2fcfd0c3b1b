import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { generate as Generate } from 'selfsigned';
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

/** True when `cert` names `host`, a DNS name or an IP address (IPv6 with or without brackets). */
function names(cert: X509Certificate, host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '');
  return (isIP(name) ? cert.checkIP(name) : cert.checkHost(name)) !== undefined;
}

/**
 * True when the server certificate of `pem` (the first certificate of a chain) names `host`, a DNS
 * name or an IP address (IPv6 with or without brackets), read with node's `X509Certificate`: a
 * device that connects to `https://<host>` then gets no name error. False for text that is not a
 * certificate.
 */
export function certificateNames(pem: string, host: string): boolean {
  try {
    return names(new X509Certificate(pem), host);
  } catch {
    return false;
  }
}

/** True when `pem` is a certificate valid for at least another day that names every host of `hosts` (and is signed by `caPem`, when given). */
function stillGood(pem: string | undefined, hosts: readonly string[], caPem?: string): boolean {
  try {
    const cert = new X509Certificate(pem!);
    if (Date.parse(cert.validTo) - Date.now() < DAY_MS) return false;
    if (caPem && !cert.verify(new X509Certificate(caPem).publicKey)) return false;
    return hosts.every((host) => names(cert, host));
  } catch {
    return false;
  }
}

/** The text of `file`, or `undefined` when there is none. */
function readIfThere(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * A server certificate for `hosts` (DNS names and IP addresses), signed by a local "mockvideo
 * development CA", both kept in `dir` (default {@link mockvideoHome}): `ca.pem` / `ca-key.pem` (valid
 * 10 years: install `ca.pem` on a device once) and `cert.pem` / `key.pem` (valid 365 days); keys
 * are written mode 600. Both are reused while valid; the server certificate is made again when it
 * expires within a day or does not name every host (e.g. a new LAN address). Keys are EC P-256,
 * signatures SHA-256 (library `selfsigned`).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` cannot be written.
 */
export async function ensureCertificate(hosts: readonly string[], dir: string = mockvideoHome()): Promise<TlsMaterial> {
  // Loaded on first use: most servers never generate a certificate.
  const { generate } = await import('selfsigned');
  const [caFile, caKeyFile, certFile, keyFile] = ['ca.pem', 'ca-key.pem', 'cert.pem', 'key.pem'].map((name) =>
    join(dir, name),
  ) as [string, string, string, string];
  /** Makes a certificate valid for `days`, writes it and its key to `files`. */
  const make = async (files: [string, string], days: number, ...[attrs, options]: Parameters<typeof Generate>) => {
    const made = await generate(attrs, {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + days * DAY_MS),
      ...options,
    });
    writeFileSync(files[0], `${made.cert.trim()}\n`);
    writeFileSync(files[1], made.private);
    chmodSync(files[1], 0o600);
    return { cert: made.cert, key: made.private };
  };
  try {
    mkdirSync(dir, { recursive: true });
    const [caCert, caKey] = [readIfThere(caFile), readIfThere(caKeyFile)];
    const ca =
      caKey && stillGood(caCert, [])
        ? { cert: caCert!, key: caKey }
        : await make(
            [caFile, caKeyFile],
            3650,
            [
              { name: 'commonName', value: 'mockvideo development CA' },
              { name: 'organizationName', value: 'mockvideo' },
            ],
            {
              extensions: [
                { name: 'basicConstraints', cA: true, critical: true },
                { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
              ],
            },
          );
    const [cert, key] = [readIfThere(certFile), readIfThere(keyFile)];
    const made =
      key && stillGood(cert, hosts, ca.cert)
        ? undefined
        : await make([certFile, keyFile], 365, [{ name: 'commonName', value: 'mockvideo' }], {
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
    return {
      // The server certificate followed by its CA.
      cert: `${(made?.cert ?? cert!).trim()}\n${ca.cert.trim()}\n`,
      key: made?.key ?? key!,
      certFile,
      keyFile,
      caFile,
      generated: made !== undefined,
    };
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
