import type { NextFunction, Request, Response } from 'express';

/**
 * Express middleware that turns msw's network error (`HttpResponse.error()`, status 0: the `reset`
 * and `hang` faults) into a reset connection. `@mswjs/http-middleware` would write status 0, which
 * Node refuses with an exception that msw does not catch (it would end the process); here the
 * status-0 `writeHead` destroys the socket instead, and the rest of the write is a no-op.
 */
export function resetOnNetworkError(req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
    if (status === 0) {
      req.socket.destroy();
      return this;
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
  next();
}
