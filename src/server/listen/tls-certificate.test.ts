import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lanAddresses } from './addresses.js';
import { certificateNames, ensureCertificate, mockvideoHome } from './tls-certificate.js';

describe('ensureCertificate', () => {
  it('makes a CA and a server certificate for the hosts, reuses them, and remakes only the server one for a new host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-cert-'));
    const first = await ensureCertificate(['localhost', '127.0.0.1', '10.0.2.2'], dir);
    expect(first.generated).toBe(true);
    const server = new X509Certificate(readFileSync(first.certFile));
    const ca = new X509Certificate(readFileSync(first.caFile!));
    expect(server.checkIP('10.0.2.2')).toBe('10.0.2.2');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(ca.ca).toBe(true);

    expect((await ensureCertificate(['localhost', '127.0.0.1'], dir)).generated).toBe(false);
    const widened = await ensureCertificate(['localhost', '192.168.7.7'], dir);
    expect(widened.generated).toBe(true);
    expect(new X509Certificate(readFileSync(widened.certFile)).checkIP('192.168.7.7')).toBe('192.168.7.7');
    expect(readFileSync(widened.caFile!, 'utf8')).toBe(ca.toString());
  });

  it('keeps them in $MOCKVIDEO_HOME, else $XDG_CONFIG_HOME/mockvideo, else ~/.mockvideo', () => {
    expect(mockvideoHome({ MOCKVIDEO_HOME: '/a', XDG_CONFIG_HOME: '/b' })).toBe('/a');
    expect(mockvideoHome({ XDG_CONFIG_HOME: '/b' })).toBe(join('/b', 'mockvideo'));
    expect(mockvideoHome({})).toMatch(/\.mockvideo$/);
  });
});

// Issue 20, item 11: the generated certificate left out IPv6 LAN addresses, and `--cert own.pem`
// without 10.0.2.2 still advertised https://10.0.2.2.
describe('what a certificate names', () => {
  const info = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
    ({ address, family, internal, netmask: '', mac: '', cidr: null }) as import('node:os').NetworkInterfaceInfo;

  it('lists the IPv6 LAN addresses a device can use, not loopback or link-local ones', () => {
    expect(
      lanAddresses(
        {
          lo: [info('::1', 'IPv6', true)],
          eth0: [
            info('10.1.2.3', 'IPv4'),
            info('fe80::1', 'IPv6'),
            info('2001:db8::7', 'IPv6'),
            info('fd00::5', 'IPv6'),
          ],
        },
        'IPv6',
      ),
    ).toEqual([
      ['eth0', '2001:db8::7'],
      ['eth0', 'fd00::5'],
    ]);
  });

  it('generates a certificate that names IPv6 addresses, and reads its names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-cert-'));
    const made = await ensureCertificate(['localhost', '127.0.0.1', '2001:db8::7'], dir);
    expect(certificateNames(made.cert, '2001:db8::7')).toBe(true);
    expect(certificateNames(made.cert, '[2001:db8::7]')).toBe(true);
    expect(certificateNames(made.cert, 'localhost')).toBe(true);
    expect(certificateNames(made.cert, '10.0.2.2')).toBe(false);
    expect(certificateNames('not a certificate', 'localhost')).toBe(false);
  });
});
