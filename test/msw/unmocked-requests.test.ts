// Unmocked calls fail the test even when the app swallows the error (issue 43): `unmockedRequests(server)`
// collects msw's unhandled-request events, and `check()` (the docs call it in afterEach) throws with
// the method and URL of each. It does not depend on the unhandled-request option or its name: a
// suite that wrote the name the installed msw ignores is caught too, and told once on stderr that
// the request reached the network. A real server on 127.0.0.1 stands in for the network. Runs on
// both legs of .ci/run (msw 2 and 3); how vitest and Jest fail the test is test/package/pack.test.ts's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers, MockvideoError, onUnhandled, unmockedRequests } from '../../src/index.js';
import { MSW_MAJOR } from '../support/msw-major.js';

let network: Server;
let origin = '';
const reached: string[] = [];

beforeAll(async () => {
  network = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"codec_level":"9"}}');
  });
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(network.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => network.close(resolve)));

/** The app under test: loads its settings, and falls back to defaults when the fetch fails (the error is swallowed). */
async function loadSettings(url: string): Promise<{ codec_level: string }> {
  try {
    return ((await (await fetch(url)).json()) as { data: { codec_level: string } }).data;
  } catch {
    return { codec_level: 'default' };
  }
}

/** What `check()` throws, or `undefined`. */
function checked(unmocked: { check(): void }): MockvideoError | undefined {
  try {
    unmocked.check();
    return undefined;
  } catch (error) {
    return error as MockvideoError;
  }
}

describe(`unmockedRequests(server) under msw ${MSW_MAJOR}`, () => {
  it("fails the check for a call the app swallowed under onUnhandled('error'), naming its method and URL", async () => {
    const server = setupServer(...createHandlers());
    const unmocked = unmockedRequests(server);
    server.listen(onUnhandled('error'));
    try {
      // The guard refused the request; the app fell back to its defaults, so the test would pass on them.
      expect(await loadSettings(`${origin}/api/g2/settings?lang=en`)).toEqual({ codec_level: 'default' });
      expect(reached).toEqual([]);
      const error = checked(unmocked);
      expect(error?.code).toBe('MV_UNMOCKED');
      expect(error?.message).toContain(
        `A request no handler answers (the app may have caught the failure):\n  GET ${origin}/api/g2/settings?lang=en\n`,
      );
      // Forgotten once checked: the next test starts clean.
      expect(checked(unmocked)).toBeUndefined();
    } finally {
      unmocked.stop();
      server.close();
    }
  });

  it('passes the check when every request was answered, and leaves out static files as msw does', async () => {
    const server = setupServer(...createHandlers());
    const unmocked = unmockedRequests(server);
    server.listen(onUnhandled('bypass'));
    try {
      expect((await fetch('https://api.example.com/api/g1/meta/cp?ref=')).status).toBe(200);
      expect((await fetch(`${origin}/logo.png`)).status).toBe(200);
      expect(unmocked.requests).toEqual([]);
      expect(checked(unmocked)).toBeUndefined();
    } finally {
      unmocked.stop();
      server.close();
      reached.length = 0;
    }
  });

  it('catches the option written under the name this msw ignores, and says so once on stderr', async () => {
    // A suite copied across majors: msw 3 ignores onUnhandledRequest, msw 2 ignores onUnhandledFrame.
    const ignored = MSW_MAJOR >= 3 ? { onUnhandledRequest: 'error' } : { onUnhandledFrame: 'error' };
    const server = setupServer(...createHandlers());
    const unmocked = unmockedRequests(server);
    server.listen(ignored as Parameters<typeof server.listen>[0]);
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // msw let both through to the network (it only warned): the app got the network's answer.
      expect(await loadSettings(`${origin}/api/g2/settings`)).toEqual({ codec_level: '9' });
      expect(await loadSettings(`${origin}/api/g2/settings?again`)).toEqual({ codec_level: '9' });
      expect(reached).toEqual(['/api/g2/settings', '/api/g2/settings?again']);
      expect(checked(unmocked)?.message).toMatch(
        new RegExp(
          `2 requests no handler answers .*\\n  GET ${origin}/api/g2/settings\\n  GET ${origin}/api/g2/settings\\?again\\n`,
        ),
      );
      const told = stderr.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('[mockvideo]'));
      expect(told).toEqual([
        `[mockvideo] GET ${origin}/api/g2/settings: no handler answers it, and msw let it through to the network. msw 3 reads only onUnhandledFrame, msw 2 only onUnhandledRequest (each ignores the other's name): server.listen(onUnhandled('error')) from mockvideo names both.`,
      ]);
    } finally {
      stderr.mockRestore();
      warn.mockRestore();
      unmocked.stop();
      server.close();
      reached.length = 0;
    }
  });

  it('collects nothing after stop()', async () => {
    const server = setupServer(...createHandlers());
    const unmocked = unmockedRequests(server);
    server.listen(onUnhandled('error'));
    unmocked.stop();
    try {
      await loadSettings(`${origin}/api/g2/settings`);
      expect(unmocked.requests).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('onUnhandled', () => {
  it('names the option for msw 3 and msw 2, and refuses a strategy msw does not know', () => {
    expect(onUnhandled('error')).toEqual({ onUnhandledFrame: 'error', onUnhandledRequest: 'error' });
    expect(Object.isFrozen(onUnhandled('warn'))).toBe(true);
    expect(() => onUnhandled('fail' as 'error')).toThrow(
      '[mockvideo] onUnhandled("fail"): the strategy is one of error, warn, bypass',
    );
  });
});
