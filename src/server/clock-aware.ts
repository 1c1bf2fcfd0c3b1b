import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ServerContext } from './context.js';

/**
 * A listener with a fast path in front that leaves every request to `host` while the server's clock
 * is set (frozen or shifted): the fast paths check `_ts` against real time, the host against the
 * clock (see `journalMiddleware`). With the clock at real time, `fast` answers as before.
 */
export function clockAware(context: ServerContext, fast: RequestListener, host: (req: IncomingMessage, res: ServerResponse) => unknown): RequestListener {
  return (req, res) => (context.responder.clock.isReal ? fast(req, res) : void host(req, res));
}
