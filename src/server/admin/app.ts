import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { API_PREFIX } from '../../contract/core.js';
import { ADMIN_PREFIX, adminRouter, foreignGuard } from './admin.js';
import type { ServerContext } from '../context.js';
import { OPERATION_CALLS, landing } from './landing.js';
import { answerFailure } from '../host/answer-writer.js';
import { clientErrorAnswer, sendAnswer, sendError } from './error-answers.js';
import { routeOf } from '../../routes/index.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Middlewares run first, after the admin guard (e.g. the analytics sink); what they leave goes on. */
  before?: RequestHandler[];
  /** The live state: with it, the admin API and the dashboard under `/__mockvideo` are on. */
  context?: ServerContext;
}

/**
 * The admin app, for what is not the device-facing surface (that is the routes', see
 * `deviceListener`): the admin guard on `/__mockvideo`, the `before` middlewares, the admin API
 * and dashboard (with a `context`), then a JSON 404 that points at the operations, then an error handler: the 4xx of an error that says the
 * request is at fault (a body or path that does not parse), else a 500 naming mockvideo (never a
 * client error for a fault of ours); a closed connection once the answer has begun. The process
 * keeps serving other clients either way.
 */
export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', false);
  app.use(ADMIN_PREFIX, foreignGuard());
  for (const middleware of options.before ?? []) app.use(middleware);
  if (options.context) {
    app.use(ADMIN_PREFIX, adminRouter(options.context));
    app.get('/', landing); // links to the dashboard
  }
  app.use((req: Request, res: Response) => {
    const error = `Nothing at ${req.method} ${req.path}. mockvideo serves the operations under ${API_PREFIX}.`;
    sendError(res, 'MV_NOT_FOUND', error, { operations: OPERATION_CALLS });
  });
  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    // Only an error that says it is the request's (http-errors' 4xx: a body Express cannot parse, a path
    // that does not decode) is the client's; anything else (a TypeError included) is a fault of ours.
    const answer = clientErrorAnswer(error, 'Cannot read this request');
    if (answer) sendAnswer(res, answer);
    else answerFailure(req, res, routeOf(req.path), error);
  });
  return app;
}
