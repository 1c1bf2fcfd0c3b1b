import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ensureCertificate } from '../../src/server/listen/tls-certificate.js';
import { startCli } from '../support/cli.js';

// Issue 20, item 11: `serve --cert own.pem` whose certificate lacks 10.0.2.2 still advertised https://10.0.2.2.
describe('advertised HTTPS URLs agree with the certificate', () => {
  it('leaves out the emulator URL the certificate does not name, and says why on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-own-cert-'));
    const own = await ensureCertificate(['localhost', '127.0.0.1'], dir);
    const server = await startCli(
      ['serve', '--port', '0', '--https-port', '0', '--no-watch', '--cert', own.certFile, '--key', own.keyFile],
      { env: { MOCKVIDEO_HOME: dir } },
    );
    try {
      await vi.waitFor(() =>
        expect(server.stderr()).toContain(`the certificate ${own.certFile} does not name 10.0.2.2`),
      );
      expect(server.stdout()).toMatch(/this machine:\s+https:\/\/127\.0\.0\.1:\d+/);
      expect(server.stdout()).not.toMatch(/https:\/\/10\.0\.2\.2/);
      // HTTP has no certificate: its emulator URL stays.
      expect(server.stdout()).toMatch(/Android emulator:\s+http:\/\/10\.0\.2\.2:\d+/);
      expect(server.stderr()).toMatch(/Add 10\.0\.2\.2 to the certificate .*or leave out --cert and --key/);
    } finally {
      await server.stop();
    }
  });
});
