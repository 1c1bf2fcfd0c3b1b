import express from 'express';
import { parseClockSetting } from '../../clock/clock.js';
import type { ServerContext } from '../context.js';

/** The client named by an admin call's `?_sdevid=`, `?_anoyid=` or `?client=` (as `clientOf` names it), or `undefined` for all. */
function clientParam(search: URLSearchParams): string | undefined {
  if (search.has('_sdevid')) return `sdevid:${search.get('_sdevid')}`;
  if (search.has('_anoyid')) return `anoyid:${search.get('_anoyid')}`;
  return search.get('client') ?? undefined;
}

/**
 * The admin calls of per-client state and the clock (mounted under `/__mockvideo`, behind its guard):
 * - `GET /state`: `{ scope, quietGapMs, clients: [{ client, counters, startUps, idleMs }] }`;
 * - `POST /state/reset` (optionally `?_sdevid=…`, `?_anoyid=…` or `?client=…`): starts the sequences and
 *   the per-client fault counts again, of that client or of all (and the server's); `{ reset, client }`;
 * - `GET /clock`: the clock (`ClockView`); `PUT /clock` with `{"frozen"?, "offset"?}` sets it (`{}`: real time).
 */
export function stateRoutes(context: ServerContext): express.Router {
  const router = express.Router();
  const search = (req: express.Request) => new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const { state, clock } = context.responder;

  router.get('/state', (_req, res) => {
    res.json({ scope: state.scope, quietGapMs: state.quietGapMs, clients: state.list() });
  });

  router.post('/state/reset', (req, res) => {
    const client = clientParam(search(req));
    const reset = state.reset(client);
    context.faults.resetClients(client);
    res.json({ reset, client: client ?? null });
  });

  router.get('/clock', (_req, res) => {
    res.json(clock.view());
  });

  router.put('/clock', (req, res) => {
    // A setting it cannot take throws MockvideoError: the admin router answers it 400.
    clock.set(parseClockSetting(req.body));
    res.json(clock.view());
  });
  return router;
}
