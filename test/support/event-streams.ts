// Idle and never-reading clients of the dashboard's event stream (`GET /__mockvideo/events`), for
// the tests of its bounds and its fair slots.
import { connect, type Socket } from 'node:net';

/** One raw event-stream client: its socket, the status it got, and whether the server has closed it. */
export interface HeldStream {
  socket: Socket;
  status: number;
  closed: () => boolean;
}

/**
 * Opens `GET /__mockvideo/events` on `url` from the local address `from` (any of 127.0.0.0/8 on
 * Linux: a test's stand-in for another device) and never reads what comes once the status line
 * has arrived: the kernel buffers fill, then mockvideo's. Resolves with the socket and the status.
 */
export function neverReadingStream(url: string, from = '127.0.0.1'): Promise<HeldStream> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ port: Number(port), host: hostname, localAddress: from }, () =>
      socket.write(`GET /__mockvideo/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`),
    );
    socket.setNoDelay(true);
    socket.once('data', (chunk) => {
      socket.pause(); // from now on nothing is read
      resolve({
        socket,
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 0),
        closed: () => closed,
      });
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      closed = true;
      reject(new Error('closed before answering'));
    });
    setTimeout(() => reject(new Error('no answer')), 5000).unref();
  });
}
