import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MockvideoError } from '../../errors.js';
import { SERVER_LIMITS, listen, serveOn } from './listen.js';

describe('listen', () => {
  it('starts on a free port with time limits against slow clients, and closes', async () => {
    const running = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1');
    try {
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      expect(running.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeout);
      expect(running.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeout);
      expect(await (await fetch(running.url)).text()).toBe('ok');
    } finally {
      await running.close();
    }
    expect(running.server.listening).toBe(false);
  });
});

// Issue 20, item 4: a listen error was a stack trace (`Error: listen EADDRINUSE … at Server.setupListenHandle`).
describe('what a listen error becomes', () => {
  const errno = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
  /** What `serveOn` rejects with when the server fails to listen with `error`. */
  const listenFailure = (error: Error, host: string, port: number, portFlag?: string) => {
    const server = createServer();
    server.listen = (() => {
      queueMicrotask(() => server.emit('error', error));
      return server;
    }) as typeof server.listen;
    return serveOn(server, port, host, 'http', portFlag).then(
      () => expect.unreachable('serveOn resolved'),
      (failure: unknown) => failure,
    );
  };

  it.each([
    [
      'EADDRINUSE',
      '127.0.0.1',
      8787,
      /^\[mockvideo\] Cannot listen on 127\.0\.0\.1:8787: the port is in use by another process\. Stop that process, or use another port \(--port 8788\) or --port 0 for a free one\.$/,
    ],
    [
      'EACCES',
      '0.0.0.0',
      80,
      /^\[mockvideo\] Cannot listen on 0\.0\.0\.0:80: permission denied \(ports below 1024 need administrator rights\)\. Choose a port from 1024 up .*--port 0/,
    ],
    [
      'EADDRNOTAVAIL',
      '10.9.9.9',
      8787,
      /^\[mockvideo\] Cannot listen on 10\.9\.9\.9:8787: 10\.9\.9\.9 is not an address of this machine\. Use --host 127\.0\.0\.1 .* or --host 0\.0\.0\.0/,
    ],
    ['EADDRNOTAVAIL', '::5', 8787, /Cannot listen on \[::5\]:8787/],
  ])('%s on %s:%d is one line naming the address and what to do', async (code, host, port, message) => {
    const failure = await listenFailure(errno(code), host, port);
    expect(failure).toBeInstanceOf(MockvideoError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain('\n');
    expect((failure as Error).cause).toMatchObject({ code });
  });

  it('names the flag that set the port', async () => {
    expect(((await listenFailure(errno('EADDRINUSE'), '127.0.0.1', 8443, '--https-port')) as Error).message).toContain(
      'use another port (--https-port 8444) or --https-port 0 for a free one.',
    );
  });

  it('leaves other errors as they are', async () => {
    const other = errno('EMFILE');
    expect(await listenFailure(other, '127.0.0.1', 1)).toBe(other);
  });

  it('rejects listen with it when the port is taken', async () => {
    const taken = await listen((_req, res) => res.end(), 0, '127.0.0.1');
    try {
      await expect(listen((_req, res) => res.end(), taken.port, '127.0.0.1')).rejects.toThrow(
        `Cannot listen on 127.0.0.1:${taken.port}: the port is in use`,
      );
    } finally {
      await taken.close();
    }
  });
});
