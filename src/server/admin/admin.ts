import { Readable, pipeline } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import { parseFaultPlan } from '../../faults/plan.js';
import { FAULT_KINDS } from '../../faults/fault.js';
import { unknownScenario } from '../../routes/errors.js';
import { journalHarText } from '../../journal/index.js';
import { verdictSuites } from '../../verify/verdicts.js';
import { DEFAULT_QUIET_GAP_SECONDS, verifyJournal } from '../../verify/verify.js';
import type { ServerContext } from '../context.js';
import { dashboardRoutes } from './dashboard-routes.js';
import { clientErrorAnswer, sendAnswer, sendError } from './error-answers.js';
import { crossSiteFetch, foreignRequest, mayMutate, ownHostNames } from './host-guard.js';

import { stateRoutes } from './state-routes.js';
import { deviceScenarioRoutes } from './device-scenario-routes.js';

/** Where the admin API lives. */
export const ADMIN_PREFIX = '/__mockvideo';

/** The admin call's query (the host turns Express's query parser off: operations read raw queries). */
function query(req: Request): URLSearchParams {
  return new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
}

/** The journal filter of `?operation=` and `?_sdevid=`. */
function journalFilter(req: Request): { operation?: string; sdevid?: string } {
  const q = query(req);
  return { operation: q.get('operation') ?? undefined, sdevid: q.get('_sdevid') ?? undefined };
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The most faults planned at once (`GET /faults` lists them all): one more is refused with 429. */
const MAX_PLANNED_FAULTS = 1000;

/** The most journal entries one `GET /requests` lists (and its default): a journal of any `--journal-size` answers in pages. */
const MAX_REQUESTS_PAGE = 1000;

/**
 * One page of journal entries for `GET /requests`: with `?after=ID` the entries after that id,
 * oldest first (`next` is the `after` of the next page, `null` at the end); without, the newest.
 * At most `?limit=` (1 to {@link MAX_REQUESTS_PAGE}, default that).
 */
function requestsPage<T extends { entry: { id: number } }>(
  exchanges: readonly T[],
  q: URLSearchParams,
): { page: T[]; next: number | null } | { error: string } {
  const after = q.has('after') ? Number(q.get('after')) : undefined;
  const limit = q.has('limit') ? Number(q.get('limit')) : MAX_REQUESTS_PAGE;
  if ((after !== undefined && !(after >= 0)) || !(limit >= 1))
    return {
      error: `${ADMIN_PREFIX}/requests takes ?after=<request id> (0 or more) and ?limit=<1 to ${MAX_REQUESTS_PAGE}>.`,
    };
  const most = Math.min(Math.floor(limit), MAX_REQUESTS_PAGE);
  if (after === undefined) return { page: exchanges.slice(-most), next: null };
  const rest = exchanges.filter((x) => x.entry.id > after);
  return { page: rest.slice(0, most), next: rest.length > most ? rest[most - 1]!.entry.id : null };
}

/**
 * Express middleware for everything under `/__mockvideo` (admin API, dashboard, analytics) and the
 * analytics sink's own paths: refuses what {@link foreignRequest} finds with 403 and no CORS headers,
 * so a foreign page can neither steer mockvideo nor read the journal or analytics (which hold device
 * identifiers) nor post records; and a browser's cross-site fetch ({@link crossSiteFetch}): a
 * sandboxed document (every device-facing answer is one, see `DEVICE_ANSWER_HEADERS`) has an opaque
 * origin, sends `Origin: null` and `Sec-Fetch-Site: cross-site`, and is refused either way.
 */
export function foreignGuard(own: ReadonlySet<string> = ownHostNames()) {
  return (req: Request, res: Response, next: NextFunction) => {
    const foreign =
      foreignRequest(req.headers.host, req.headers.origin, own) ??
      crossSiteFetch(req.get('sec-fetch-site'), req.get('sec-fetch-mode'), req.method);
    if (!foreign) return next();
    sendError(
      res,
      'MV_FOREIGN_REQUEST',
      `Refused: ${foreign}. mockvideo's own calls answer only devices, pages and tools of this server.`,
    );
  };
}

function guard(context: ServerContext) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!MUTATING.has(req.method)) return next();
    if (!mayMutate(req.socket.remoteAddress, req.headers.authorization, context.adminToken)) {
      sendError(
        res,
        'MV_ADMIN_FORBIDDEN',
        context.adminToken
          ? 'Admin calls from other hosts need the header "Authorization: Bearer <admin token>".'
          : 'Admin calls are only accepted from this machine. Start mockvideo with --admin-token TOKEN to allow other hosts that send "Authorization: Bearer TOKEN".',
      );
      return;
    }
    // A POST without a body (`POST /state/reset`) needs no content type; any body must be JSON.
    const empty =
      req.method === 'POST' &&
      !(Number(req.headers['content-length'] ?? 0) > 0) &&
      req.headers['transfer-encoding'] === undefined;
    if ((req.method === 'POST' || req.method === 'PUT') && !empty && !req.is('application/json')) {
      sendError(
        res,
        'MV_NOT_JSON',
        `${req.method} ${req.originalUrl} takes a JSON body: send "Content-Type: application/json".`,
      );
      return;
    }
    next();
  };
}

/** An Express router's layer: a route, or a router it mounts. */
interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** The calls of `router` and the routers it mounts, as `GET|PUT /scenario`, for the 404 (so the list cannot go stale). */
function callsOf(router: express.Router): string[] {
  const calls = new Map<string, string[]>();
  const walk = (stack: Layer[]) => {
    for (const { route, handle } of stack) {
      if (handle.stack) walk(handle.stack);
      else if (route) calls.set(route.path, [...(calls.get(route.path) ?? []), ...Object.keys(route.methods)]);
    }
  };
  walk(router.stack as Layer[]);
  return [...calls].map(([path, methods]) => `${methods.join('|').toUpperCase()} ${path}`);
}

/**
 * The admin API under `/__mockvideo` (JSON): health, scenarios and the active one, the journal (and
 * its HAR), verify, and server-wide faults. Mutating calls pass the loopback/token guard and need a
 * JSON body where they take one. Shapes are documented in docs/admin-api.md (the dashboard's own calls in docs/dashboard.md).
 */
export function adminRouter(context: ServerContext): express.Router {
  const router = express.Router();
  router.use(guard(context));
  router.use(dashboardRoutes(context)); // the QA page, its assets and its event stream (GET only; behind the guard like every admin call)
  router.use(express.json({ limit: '64kb' }));

  router.get('/health', (_req, res) => {
    res.json({
      ok: true,
      mode: context.mode,
      scenario: context.active.scenario,
      scenariosVersion: context.catalogVersion,
      uptimeSeconds: Math.round((Date.now() - context.startedAt) / 1000),
      ...context.details,
      ...(context.deviceUrls ? { deviceUrls: context.deviceUrls } : {}),
      clock: context.responder.clock.view(),
      state: context.responder.state.scope,
      fuzzing: context.fuzz !== undefined,
    });
  });

  router.use(stateRoutes(context)); // GET /state, POST /state/reset, GET|PUT /clock
  router.use(deviceScenarioRoutes(context)); // GET|PUT|DELETE /devices/:device/scenario

  const notFuzzing = (res: Response) =>
    sendError(res, 'MV_NOT_FUZZING', 'This server is not fuzzing: start it with "mockvideo serve --fuzz [SEED]".');
  router.get('/fuzz', (_req, res) => {
    if (context.fuzz) return void res.json(context.fuzz.report());
    notFuzzing(res);
  });
  // Switches one edge class on or off for the answers from now on: {"on": false}.
  router.put('/fuzz/classes/:name', (req, res) => {
    if (!context.fuzz) return void notFuzzing(res);
    const on = (req.body as { on?: unknown } | undefined)?.on;
    if (typeof on !== 'boolean') return void sendError(res, 'MV_USAGE', 'Send {"on": true} or {"on": false}.');
    const was = context.fuzz.report().classes.find((c) => c.name === req.params.name)?.on;
    res.json(context.fuzz.setClass(req.params.name, on)); // an unknown class: its MockvideoError's 400
    if (was !== on) context.onAdminChange?.(`fuzz class ${req.params.name} switched ${on ? 'on' : 'off'}`);
  });
  router.get('/scenarios', (_req, res) => {
    res.json({
      active: context.active.scenario,
      scenarios: context.catalog
        .list()
        .map((s) => ({ name: s.name, description: s.description, extends: s.ancestry[0] ?? null })),
    });
  });

  router.get('/scenario', (_req, res) => {
    const scenario = context.catalog.get(context.active.scenario);
    res.json({ name: scenario.name, description: scenario.description });
  });

  router.put('/scenario', (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') {
      sendError(res, 'MV_USAGE', 'Send {"name": "<scenario>"}.', { scenarios: context.catalog.names });
      return;
    }
    if (!context.catalog.has(name)) return void sendAnswer(res, unknownScenario(name, context.catalog.names));
    const was = context.active.scenario;
    context.active.scenario = name;
    context.responder.resetSequences(name);
    context.onAdminChange?.(`scenario "${name}" now answers every device that does not pick one (was "${was}")`);
    res.json({ name, description: context.catalog.get(name).description });
  });

  router.get('/requests', (req, res) => {
    const exchanges = context.journal.exchanges(journalFilter(req));
    const paged = requestsPage(exchanges, query(req));
    if ('error' in paged) return void sendError(res, 'MV_USAGE', paged.error);
    res.json({ requests: paged.page.map((x) => x.entry), total: exchanges.length, next: paged.next });
  });

  router.get('/requests.har', (req, res) => {
    // attachment() first: it sets a type from the .har extension (octet-stream), which type() then replaces.
    res.attachment('mockvideo-requests.har').type('application/json');
    // `?ids=3,5,8`: only these requests (the dashboard's HAR of one start-up). Written entry by entry.
    const ids = query(req).get('ids')?.split(',').map(Number);
    const exchanges = context.journal.exchanges(journalFilter(req)).filter((x) => !ids || ids.includes(x.entry.id));
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const har = journalHarText(exchanges, origin, undefined, req.socket.localAddress?.replace(/^::ffff:/, ''));
    // A client gone early ends the stream (the error is that client's alone).
    pipeline(Readable.from(har), res, () => undefined);
  });

  router.get('/requests/:id', (req, res) => {
    const exchange = context.journal.get(Number(req.params.id));
    if (!exchange) {
      const limit = context.journal.limit;
      return void sendError(
        res,
        'MV_NOT_IN_JOURNAL',
        `No request #${req.params.id} in the journal (it keeps the last ${limit}).`,
      );
    }
    res.json({
      ...exchange.entry,
      request: {
        method: exchange.method,
        path: exchange.path,
        query: exchange.rawQuery,
        headers: exchange.requestHeaders,
      },
      response: { headers: exchange.responseHeaders, body: exchange.responseBody },
    });
  });

  router.delete('/requests', (_req, res) => {
    const cleared = context.journal.exchanges().length;
    context.journal.clear();
    res.json({ cleared });
  });

  router.get('/verify', (req, res) => {
    const asked = Number(query(req).get('gap') ?? DEFAULT_QUIET_GAP_SECONDS);
    const gap = Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_QUIET_GAP_SECONDS;
    const entries = context.journal.exchanges(journalFilter(req)).map((x) => x.entry);
    // The report, and the same as CI verdicts (`verify --junit`).
    res.json({ ...verifyJournal(entries, gap), suites: verdictSuites(entries, gap) });
  });

  router.get('/faults', (_req, res) => {
    // `kinds`: what POST takes, for the dashboard's picker (a new kind needs no change there).
    res.json({ faults: context.faults.list(), kinds: FAULT_KINDS });
  });

  router.post('/faults', (req, res) => {
    context.faults.prune();
    if (context.faults.list().length >= MAX_PLANNED_FAULTS) {
      const clear = `clear them (DELETE ${ADMIN_PREFIX}/faults) before planning more`;
      const error = `${MAX_PLANNED_FAULTS} faults are planned already, the most mockvideo keeps: ${clear}.`;
      return void sendError(res, 'MV_TOO_MANY_FAULTS', error);
    }
    const planned = context.faults.add(parseFaultPlan(req.body));
    const times =
      planned.times === null
        ? 'until cleared'
        : `for the next ${planned.times} request${planned.times === 1 ? '' : 's'}${planned.state === 'client' ? ' of each device' : ''}`;
    context.onAdminChange?.(`fault #${planned.id} ${planned.spec} planned ${times}`);
    res.status(201).json(planned);
  });

  router.delete('/faults', (_req, res) => {
    const cleared = context.faults.list().length;
    context.faults.clear();
    context.onAdminChange?.(`faults cleared (${cleared} planned)`);
    res.json({ cleared });
  });

  router.use((req: Request, res: Response) => {
    const calls = callsOf(router);
    sendError(res, 'MV_NO_ADMIN_CALL', `No admin call ${req.method} ${ADMIN_PREFIX}${req.path}.`, { calls });
  });
  // A value a call cannot take (a fault plan, a clock setting: `MockvideoError`), malformed JSON bodies and the like: a clear 4xx, never a crash; a fault of ours goes on to the admin app's 500.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const answer = clientErrorAnswer(error, 'Cannot read this admin call');
    if (answer) sendAnswer(res, answer);
    else next(error);
  });
  return router;
}
