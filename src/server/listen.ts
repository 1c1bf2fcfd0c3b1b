import { createServer, type Server } from 'node:http';
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
 * Listens on `host:port` (`port` 0 picks a free port).
 * @throws the listen error (e.g. `EADDRINUSE`) when the address cannot be bound.
 */
export function listen(app: RequestListener, port: number, host: string): Promise<RunningServer> {
  const server = createServer(app);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolvePromise({
        server,
        port: address.port,
        url: `http://${shown}:${address.port}`,
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
