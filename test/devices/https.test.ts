import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { BIN, runCli, startCli, type CliProcess } from '../support/cli.js';
import { rawGet } from './support.js';

// Generated certificates go to a temp folder, never the user's ~/.mockvideo.
const HOME = mkdtempSync(join(tmpdir(), 'mockvideo-home-'));
process.env.MOCKVIDEO_HOME = HOME;

/** Waits until the CLI printed its HTTPS URL ("this machine: https://…") and returns it. */
async function httpsUrl(cli: CliProcess): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const m = /this machine:\s+(https:\/\/127\.0\.0\.1:\d+)/.exec(cli.stdout());
    if (m) return m[1]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no HTTPS URL printed:\n${cli.stdout()}`);
}

let cli: CliProcess;
let secure: string;
let ca: string;
beforeAll(async () => {
  cli = await startCli(['serve', '--port', '0', '--https', '--https-port', '0']);
  secure = await httpsUrl(cli);
  ca = readFileSync(join(HOME, 'ca.pem'), 'utf8');
});
afterAll(async () => {
  await cli.stop();
});

describe('--https with a generated certificate', () => {
  it('serves HTTP and HTTPS side by side; prints the certificate and the CA to install', () => {
    expect(cli.url).toMatch(/^http:\/\//);
    expect(cli.stdout()).toContain(`certificate: ${join(HOME, 'cert.pem')} (new)`);
    expect(cli.stdout()).toContain(`install the CA once: ${join(HOME, 'ca.pem')}`);
    expect(cli.stdout()).toMatch(/Android emulator: https:\/\/10\.0\.2\.2:\d+/);
  });

  it('a client that trusts the CA gets the same body over HTTPS as over HTTP', async () => {
    const plain = await rawGet(`${cli.url}${clientPath('meta/setting')}`);
    const tls = await rawGet(`${secure}${clientPath('meta/setting')}`, {}, ca);
    expect(tls.status).toBe(200);
    expect(tls.body.toString()).toBe(plain.body.toString());
  });

  it('{origin} follows the scheme: URLs in an HTTPS answer are https URLs of the HTTPS port, and they load', async () => {
    const plain = (await rawGet(`${cli.url}${clientPath('meta/cp')}`)).body.toString();
    const tls = (await rawGet(`${secure}${clientPath('meta/cp')}`, {}, ca)).body.toString();
    expect(tls).toBe(plain.split(cli.url).join(secure));
    const icon = (JSON.parse(tls) as { data: Array<{ app_icon: string }> }).data[0]!.app_icon;
    expect(icon.startsWith(`${secure}/__mockvideo/media/`)).toBe(true);
    expect(PNG.sync.read((await rawGet(icon, {}, ca)).body).width).toBeGreaterThan(0);
  });

  it('the certificate is real TLS: a client that does not trust the CA is refused', async () => {
    await expect(rawGet(`${secure}${clientPath('meta/setting')}`)).rejects.toThrow(/certificate/i);
  });

  it('the next start reuses the cached certificate', async () => {
    const before = statSync(join(HOME, 'cert.pem')).mtimeMs;
    const again = await startCli(['serve', '--port', '0', '--https-port', '0']);
    try {
      const url = await httpsUrl(again);
      expect(again.stdout()).toContain(`certificate: ${join(HOME, 'cert.pem')}\n`);
      expect(statSync(join(HOME, 'cert.pem')).mtimeMs).toBe(before);
      expect((await rawGet(`${url}${clientPath('ad_config')}`, {}, ca)).status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});

describe('--https alone', () => {
  it('serves HTTPS instead of HTTP on --port; the first line carries the https URL', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--https'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 10_000);
        child.stdout.on('data', () => {
          const m = /^mockvideo serving scenario "default" at (https:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(out).not.toMatch(/this machine:\s+http:\/\//);
      expect((await rawGet(`${url}${clientPath('meta/setting')}`, {}, ca)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('--cert and --key', () => {
  it('serve HTTPS with the given PEM files', async () => {
    const given = await startCli([
      'serve',
      '--port',
      '0',
      '--https-port',
      '0',
      '--cert',
      join(HOME, 'cert.pem'),
      '--key',
      join(HOME, 'key.pem'),
    ]);
    try {
      const url = await httpsUrl(given);
      expect(given.stdout()).toContain(`certificate: ${join(HOME, 'cert.pem')}`);
      // The given file holds the server certificate only; the client trusts its CA.
      expect((await rawGet(`${url}${clientPath('meta/setting')}`, {}, ca)).status).toBe(200);
    } finally {
      await given.stop();
    }
  });

  it('exit 2 naming the flag when a file is missing or a flag comes alone', async () => {
    const missing = await runCli([
      'serve',
      '--port',
      '0',
      '--cert',
      join(HOME, 'nope.pem'),
      '--key',
      join(HOME, 'key.pem'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`[mockvideo] --cert ${join(HOME, 'nope.pem')}: cannot read the file (ENOENT)`);
    const alone = await runCli(['serve', '--port', '0', '--cert', join(HOME, 'cert.pem')]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--cert needs --key');
  });
});
