import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureCertificate, mockvideoHome } from './tls-certificate.js';

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
