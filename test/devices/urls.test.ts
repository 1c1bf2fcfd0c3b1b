import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';

describe('printed URLs', () => {
  it('with --host 0.0.0.0: loopback, the Android emulator 10.0.2.2 and the adb reverse hint; the first line stays the server URL', async () => {
    const cli = await startCli(['serve', '--port', '0', '--host', '0.0.0.0']);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const out = cli.stdout();
      const port = new URL(cli.url).port;
      expect(out.split('\n')[0]).toBe(`mockvideo serving scenario "default" at http://127.0.0.1:${port}`);
      expect(out).toContain(`Android emulator: http://10.0.2.2:${port}`);
      expect(out).toContain(`adb reverse tcp:${port} tcp:${port}`);
      expect(out).toContain(`this machine:     http://127.0.0.1:${port}`);
      expect(out).not.toContain('serve with --host 0.0.0.0');
      expect((await fetch(`${cli.url}/__mockvideo/media/thumb/1.png`)).headers.get('content-type')).toBe('image/png');
    } finally {
      await cli.stop();
    }
  });

  it('on loopback (the default) the emulator URL is printed too, with a hint for phones on the network, and /health lists the URLs', async () => {
    const cli = await startCli(['serve', '--port', '0']);
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(cli.stdout()).toContain(`http://10.0.2.2:${new URL(cli.url).port}`);
      expect(cli.stdout()).toContain('serve with --host 0.0.0.0');
      // The dashboard lists the same URLs, from /health.
      const port = new URL(cli.url).port;
      const health = (await (await fetch(`${cli.url}/__mockvideo/health`)).json()) as {
        deviceUrls: Array<{ label: string; url: string }>;
      };
      expect(health.deviceUrls).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ label: 'Android emulator', url: `http://10.0.2.2:${port}` }),
          expect.objectContaining({ label: 'this machine', url: `http://127.0.0.1:${port}` }),
        ]),
      );
    } finally {
      await cli.stop();
    }
  });
});
