import { createServer, type Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

/** A running HTTP server: its URL and a clean stop. */
export interface RunningServer {
  server: Server;
  /** `http://HOST:PORT`; a wildcard host (`0.0.0.0`, `::`) is shown as `127.0.0.1`. */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish for up to `graceMs` milliseconds
   * (default 2,000), then closes what is left. Resolves when the server is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Time limits of every server, in milliseconds: a client that sends its headers slowly
 * (slowloris) or never finishes its request is cut off instead of holding a socket forever.
 */
export const SERVER_LIMITS = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 } as const;

/**
 * Starts `server` (HTTP or HTTPS) on `host:port` with {@link SERVER_LIMITS}; `port` 0 picks a free
 * port. The URL shows `scheme`, and `127.0.0.1` for a wildcard host.
 * @throws the listen error (e.g. `EADDRINUSE`) when the address cannot be bound.
 */
export function serveOn<S extends Server | HttpsServer>(server: S, port: number, host: string, scheme: 'http' | 'https'): Promise<Omit<RunningServer, 'server'> & { server: S }> {
  Object.assign(server, SERVER_LIMITS);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolvePromise({
        server,
        port: address.port,
        url: `${scheme}://${shown}:${address.port}`,
        close: (graceMs = 2000) =>
          new Promise<void>((done) => {
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
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
 * @throws the listen error (e.g. `EADDRINUSE`) when the address cannot be bound.
 */
export function listen(app: RequestListener, port: number, host: string): Promise<RunningServer> {
  return serveOn(createServer(app), port, host, 'http');
}
