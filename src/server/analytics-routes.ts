import express, { type NextFunction, type Request, type Response } from 'express';
import { AnalyticsStore, checkAnalyticsRecord } from '../analytics/index.js';
import { foreignRequest, mayMutate, ownHostNames } from './host-guard.js';

/** Where the sink listens by default, and where its records are listed. */
export const ANALYTICS_PATH = '/__mockvideo/analytics';

/** The records of a request body: a JSON object, a JSON array of objects, or a form-encoded body (one record). */
export function recordsOfBody(text: string, contentType = ''): { records: unknown[] } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'The body is empty: send a JSON object, a JSON array of objects, or a form-encoded record.' };
  const form = () => ({ records: [Object.fromEntries(new URLSearchParams(trimmed))] });
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return form();
  try {
    const value: unknown = JSON.parse(trimmed);
    return { records: Array.isArray(value) ? value : [value] };
  } catch {
    if (/^[^=&\s{[]+=/.test(trimmed)) return form();
    return { error: 'The body is neither JSON nor form-encoded: send a JSON object, a JSON array of objects, or a=1&b=2.' };
  }
}

/** Who may change the analytics records: `adminToken` (read per request) lets other hosts empty them; `own` are this server's names (default `ownHostNames()`). */
export interface AnalyticsGuard {
  adminToken?: () => string | undefined;
  own?: ReadonlySet<string>;
}

/**
 * The analytics sink ([node], Express): `POST` a record or records to {@link ANALYTICS_PATH} or any
 * of `paths`; each is checked with {@link checkAnalyticsRecord} and kept in `store` with its
 * findings. `GET /__mockvideo/analytics` lists them as `{"records": [{ "id", "time", "record",
 * "findings": [{ "field", "rule", "message" }] }]}`; `DELETE` empties the list (from loopback, or with the admin token); a POST from a web page
 * (foreign `Host` or `Origin`) is refused with 403.
 *
 * The POST answers 200 `{ "accepted": n, "records": [{ "id", "findings" }] }`, or 400 `{ error }`
 * for a body that is not JSON or form-encoded (kept too, with a finding). Bodies are read only
 * on these paths, up to 1 MB (413 beyond).
 * @see docs/contract.md#analytics-records (the delivery endpoint is unknown)
 */
export function analyticsRoutes(store: AnalyticsStore, paths: readonly string[] = [], guard: AnalyticsGuard = {}) {
  const sinkPaths = new Set([ANALYTICS_PATH, ...paths]);
  const own = guard.own ?? ownHostNames();
  // Read as text whatever the content type (clients label JSON as text/plain too), then parsed by recordsOfBody.
  const parse = express.text({ type: () => true, limit: '1mb' });
  const router = express.Router();
  router.get(ANALYTICS_PATH, (_req, res) => {
    res.json({ records: store.list() });
  });
  router.delete(ANALYTICS_PATH, (req, res) => {
    if (!mayMutate(req.socket.remoteAddress, req.headers.authorization, guard.adminToken?.())) {
      res.status(403).json({ error: `Emptying ${ANALYTICS_PATH} from another host needs the header "Authorization: Bearer <admin token>" (start mockvideo with --admin-token TOKEN).` });
      return;
    }
    store.clear();
    res.status(204).end();
  });
  // A page in a browser must not post records (the sink under /__mockvideo has the admin guard; custom paths get it here).
  router.post([...sinkPaths], (req: Request, res: Response, next: NextFunction) => {
    const foreign = foreignRequest(req.headers.host, req.headers.origin, own);
    if (foreign) res.status(403).json({ error: `Refused: ${foreign}. The analytics sink takes records from devices and tools, not from web pages.` });
    else next();
  });
  router.post([...sinkPaths], parse, (req: Request, res: Response) => {
    const text = typeof req.body === 'string' ? req.body : '';
    const parsed = recordsOfBody(text, req.get('content-type'));
    if ('error' in parsed) {
      store.add(text, [{ field: '', rule: 'object', message: parsed.error }]);
      res.status(400).json({ error: `${parsed.error} (${req.method} ${req.path})` });
      return;
    }
    const kept = parsed.records.map((record) => store.add(record, checkAnalyticsRecord(record)));
    res.json({ accepted: kept.length, records: kept.map(({ id, findings }) => ({ id, findings })) });
  });
  router.use(ANALYTICS_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/') return next();
    res.status(405).set('allow', 'GET, POST, DELETE').json({ error: `${req.method} is not allowed on ${ANALYTICS_PATH}: POST records, GET lists them, DELETE empties the list.` });
  });
  return router;
}
