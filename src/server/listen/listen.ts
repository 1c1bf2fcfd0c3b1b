import { createServer, type Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import { MockvideoError } from '../../errors.js';

/** A running HTTP server: its URL and a clean stop. */
export interface RunningServer {
  server: Server;
  /** `http://HOST:PORT`; a wildcard host (`0.0.0.0`, `::`) is shown as `127.0.0.1`. */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish for up to `graceMs` milliseconds
   * (default 2,000), closing each connection as soon as it is idle, then closes what is left.
   * Resolves when the server is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Time limits of every server, in milliseconds: a client that sends its headers slowly
 * (slowloris) or never finishes its request is cut off instead of holding a socket forever.
 * Node checks the first two only every `connectionsCheckingInterval` (its default, 30 s, would let a
 * slow client hold a socket up to 40 s), so mockvideo checks every second.
 */
export const SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * The environment variable that shortens `headersTimeout` (milliseconds, 100 to
 * {@link SERVER_LIMITS}'s), so that a test can watch a slow client being cut off. For tests only.
 */
const HEADERS_TIMEOUT_ENV = 'MOCKVIDEO_HEADERS_TIMEOUT_MS';

/**
 * The options of `http.createServer` / `https.createServer` with {@link SERVER_LIMITS}, and
 * `headersTimeout` from {@link HEADERS_TIMEOUT_ENV} when it is set to a valid value (else ignored).
 * `connectionsCheckingInterval` only takes effect here: Node reads it when the server is created.
 */
export function serverOptions(env: NodeJS.ProcessEnv = process.env): Record<keyof typeof SERVER_LIMITS, number> {
  const shorter = Number(env[HEADERS_TIMEOUT_ENV]);
  const headersTimeout =
    Number.isInteger(shorter) && shorter >= 100 && shorter <= SERVER_LIMITS.headersTimeout
      ? shorter
      : SERVER_LIMITS.headersTimeout;
  return { ...SERVER_LIMITS, headersTimeout };
}

/**
 * The one line a listen error becomes: the address, the cause in words, and what to do (`--port 0`,
 * another port, `--host`), for the errors a user causes: the port is in use (`EADDRINUSE`), may not
 * be bound without privileges (`EACCES`), or the host is not an address of this machine
 * (`EADDRNOTAVAIL`, `ENOTFOUND`). `portFlag` is the flag that set the port (`--https-port`). Other
 * errors are returned as they are.
 *
 * @example listenFailure(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), '127.0.0.1', 8787)
 * // MockvideoError: Cannot listen on 127.0.0.1:8787: the port is in use by another process. …
 */
function listenFailure(error: unknown, host: string, port: number, portFlag = '--port'): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const fail = (message: string) => Object.assign(new MockvideoError('MV_USAGE', message), { cause: error });
  const otherPort = port === 0 ? '' : `another port (${portFlag} ${port === 65535 ? port - 1 : port + 1}) or `;
  switch (code) {
    case 'EADDRINUSE':
      return fail(
        `Cannot listen on ${address}: the port is in use by another process. Stop that process, or use ${otherPort}${portFlag} 0 for a free one.`,
      );
    case 'EACCES':
      return fail(
        `Cannot listen on ${address}: permission denied${port > 0 && port < 1024 ? ` (ports below 1024 need administrator rights)` : ''}. Choose a port from 1024 up (e.g. ${portFlag} 8787), or ${portFlag} 0 for a free port.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(
        `Cannot listen on ${address}: ${host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every network).`,
      );
    default:
      return error;
  }
}

/**
 * Starts `server` (HTTP or HTTPS, made with {@link serverOptions}) on `host:port`; `port` 0 picks a
 * free port. The URL shows `scheme`, and `127.0.0.1` for a wildcard host.
 * @throws MockvideoError (`MV_USAGE`, see {@link listenFailure}) when the port is in use or not
 *   allowed, or the host is not an address of this machine; else the listen error.
 */
export function serveOn<S extends Server | HttpsServer>(
  server: S,
  port: number,
  host: string,
  scheme: 'http' | 'https',
  portFlag = '--port',
): Promise<Omit<RunningServer, 'server'> & { server: S }> {
  // Node reads these three from the server at each check, so they are set here too (keepAliveTimeout
  // is no createServer option in Node 20); connectionsCheckingInterval only works at creation.
  const { headersTimeout, requestTimeout, keepAliveTimeout } = serverOptions();
  Object.assign(server, { headersTimeout, requestTimeout, keepAliveTimeout });
  return new Promise((resolvePromise, reject) => {
    const fail = (error: Error) => reject(listenFailure(error, host, port, portFlag));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      const address = server.address() as AddressInfo;
      const shown =
        host === '0.0.0.0' || host === '::'
          ? '127.0.0.1'
          : address.family === 'IPv6'
            ? `[${address.address}]`
            : address.address;
      resolvePromise({
        server,
        port: address.port,
        url: `${scheme}://${shown}:${address.port}`,
        close: (graceMs = 2000) =>
          new Promise<void>((done) => {
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            timer.unref();
            // Connections that go idle after close() started would otherwise wait out the grace period.
            const idle = setInterval(() => server.closeIdleConnections(), 50);
            server.close(() => {
              clearTimeout(timer);
              clearInterval(idle);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}

/**
 * Listens with HTTP on `host:port` (`port` 0 picks a free port).
 * @throws MockvideoError (`MV_USAGE`) when the address cannot be bound (see {@link listenFailure}).
 */
export function listen(app: RequestListener, port: number, host: string): Promise<RunningServer> {
  return serveOn(createServer(serverOptions(), app), port, host, 'http');
}
