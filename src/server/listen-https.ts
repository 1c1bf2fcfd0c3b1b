import { createServer } from 'node:https';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from './listen.js';
import type { TlsMaterial } from './tls-certificate.js';

/** A running HTTPS server: like {@link RunningServer}, with an `https://HOST:PORT` URL. */
export type RunningHttpsServer = Omit<RunningServer, 'server'> & { server: import('node:https').Server };

/**
 * Listens with TLS on `host:port` (`port` 0 picks a free port) with `tls.cert` (chain, PEM) and `tls.key`.
 * @throws the listen error (e.g. `EADDRINUSE`) or a TLS error for a key that does not fit the certificate.
 */
export function listenHttps(app: RequestListener, port: number, host: string, tls: Pick<TlsMaterial, 'cert' | 'key'>): Promise<RunningHttpsServer> {
  const server = createServer({ cert: tls.cert, key: tls.key }, app);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolvePromise({
        server,
        port: address.port,
        url: `https://${shown}:${address.port}`,
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
