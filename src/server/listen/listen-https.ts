import { createServer } from 'node:https';
import type { RequestListener } from 'node:http';
import { serveOn, serverOptions, type RunningServer } from './listen.js';
import type { TlsMaterial } from './tls-certificate.js';

/** A running HTTPS server: like {@link RunningServer}, with an `https://HOST:PORT` URL. */
export type RunningHttpsServer = Omit<RunningServer, 'server'> & { server: import('node:https').Server };

/**
 * Listens with TLS on `host:port` (`port` 0 picks a free port) with `tls.cert` (chain, PEM) and `tls.key`;
 * `portFlag` names the flag that set the port in a listen error (default `--port`).
 * @throws MockvideoError for a port in use or not allowed (see `listenFailure`), or a TLS error for a key that does not fit the certificate.
 */
export function listenHttps(
  app: RequestListener,
  port: number,
  host: string,
  tls: Pick<TlsMaterial, 'cert' | 'key'>,
  portFlag = '--port',
): Promise<RunningHttpsServer> {
  return serveOn(
    createServer({ ...serverOptions(), cert: tls.cert, key: tls.key }, app),
    port,
    host,
    'https',
    portFlag,
  );
}
