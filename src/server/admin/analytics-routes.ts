import express, { type NextFunction, type Request, type Response } from 'express';
import { postOverBounds } from '../../analytics/post-bounds.js';
import { checkAnalyticsRecord, type AnalyticsFinding } from '../../analytics/record-checks.js';
import { AnalyticsStore, MAX_ANALYTICS_RECORD_BYTES } from '../../analytics/store.js';
import { foreignGuard } from './admin.js';
import { sendError } from './error-answers.js';
import { mayMutate } from './host-guard.js';

/** Where the sink listens by default, and where its records are listed. */
const ANALYTICS_PATH = '/__mockvideo/analytics';

/** The methods of the analytics sink's own path; any other gets 405 with them in `allow`. */
const SINK_METHODS = ['GET', 'POST', 'DELETE'];

/**
 * The records of a request body: a JSON object, a JSON array of objects, or a form-encoded body (one
 * record); `over` (the sentence of a 413) for a JSON text over the bounds of `postOverBounds`,
 * found before it is parsed.
 */
function recordsOfBody(text: string, contentType = ''): { records: unknown[] } | { error: string } | { over: string } {
  const trimmed = text.trim();
  if (trimmed === '')
    return { error: 'The body is empty: send a JSON object, a JSON array of objects, or a form-encoded record.' };
  const form = () => ({ records: [Object.fromEntries(new URLSearchParams(trimmed))] });
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return form();
  const over = postOverBounds(trimmed);
  if (over) return { over };
  try {
    const value: unknown = JSON.parse(trimmed);
    return { records: Array.isArray(value) ? value : [value] };
  } catch {
    if (/^[^=&\s{[]+=/.test(trimmed)) return form();
    return {
      error: 'The body is neither JSON nor form-encoded: send a JSON object, a JSON array of objects, or a=1&b=2.',
    };
  }
}

/** The most bytes of one POST to the sink (413 beyond, with a clear body). */
const MAX_ANALYTICS_BODY_BYTES = 1024 * 1024;

/** The most characters kept of a body that is neither JSON nor form-encoded (kept as a record with its finding). */
const UNREADABLE_KEPT = 1024;

/**
 * What the sink keeps of `records`: each with its findings and its size (the bytes of its JSON and
 * of its findings'), or the first record over {@link MAX_ANALYTICS_RECORD_BYTES} (its index and
 * size). All of it is worked out before anything is kept, so a refused body keeps nothing.
 */
function prepareRecords(
  records: readonly unknown[],
):
  | { prepared: Array<{ record: unknown; findings: AnalyticsFinding[]; bytes: number }> }
  | { index: number; bytes: number } {
  const prepared = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    const bytes = Buffer.byteLength(JSON.stringify(record) ?? '');
    if (bytes > MAX_ANALYTICS_RECORD_BYTES) return { index, bytes };
    const findings = checkAnalyticsRecord(record);
    prepared.push({ record, findings, bytes: bytes + JSON.stringify(findings).length });
  }
  return { prepared };
}

/**
 * The analytics sink ([node], Express): `POST` a record or records to {@link ANALYTICS_PATH} or any
 * of `paths`; each is checked with {@link checkAnalyticsRecord} and kept in `store` with its
 * findings. `GET /__mockvideo/analytics` lists a bounded page of them as `{"records": [{ "id",
 * "time", "record", "findings": [{ "field", "rule", "message" }] }], "total", "next"}`: the newest
 * (default 200), or with `?after=ID` those after that id (`next` is the `after` of the next page,
 * `null` at the end); `?limit=` up to 1,000, and never more than 2 MiB of records (see
 * `AnalyticsStore.page`). `DELETE` empties the list (from loopback, or with the admin token of
 * `live`, read per request); a POST from a web page is refused with 403 (see `foreignGuard`).
 *
 * The POST answers 200 `{ "accepted": n, "records": [{ "id", "findings" }] }` (at most
 * `MAX_RECORDS_PER_POST` records of at most `MAX_FINDINGS_PER_RECORD` + 1 findings: under 1 MiB),
 * or 400 `{ error }` for a body that is not JSON or form-encoded (kept too, its first 1,024
 * characters, with a finding), or 413 `{ error }` naming the bound for a body over
 * {@link MAX_ANALYTICS_BODY_BYTES}, over the records or objects of `postOverBounds` (found on the
 * text, before it is parsed), or with a record over `MAX_ANALYTICS_RECORD_BYTES`: nothing of such a
 * body is kept, its records being checked before any is. Bodies are read only on these paths.
 * @see docs/contract.md#analytics-records (the delivery endpoint is unknown)
 */
export function analyticsRoutes(store: AnalyticsStore, paths: readonly string[], live: { adminToken?: string }) {
  const sinkPaths = new Set([ANALYTICS_PATH, ...paths]);
  // Read as text whatever the content type (clients label JSON as text/plain too), then parsed by recordsOfBody.
  const parse = express.text({ type: () => true, limit: MAX_ANALYTICS_BODY_BYTES });
  const router = express.Router();
  router.get(ANALYTICS_PATH, (req, res) => {
    const search = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const after = search.has('after') ? Number(search.get('after')) : undefined;
    const limit = search.has('limit') ? Number(search.get('limit')) : undefined;
    if ((after !== undefined && !(after >= 0)) || (limit !== undefined && !(limit >= 1))) {
      const got = req.originalUrl.split('?')[1];
      const takes = `${ANALYTICS_PATH} takes ?after=<record id> (0 or more) and ?limit=<1 to 1000>`;
      return void sendError(res, 'MV_USAGE', `${takes}, got "${got}".`);
    }
    res.json(store.page(after, limit));
  });
  router.delete(ANALYTICS_PATH, (req, res) => {
    if (!mayMutate(req.socket.remoteAddress, req.headers.authorization, live.adminToken)) {
      const needs = 'needs the header "Authorization: Bearer <admin token>" (start mockvideo with --admin-token TOKEN)';
      return void sendError(res, 'MV_ADMIN_FORBIDDEN', `Emptying ${ANALYTICS_PATH} from another host ${needs}.`);
    }
    store.clear();
    res.status(204).end();
  });
  // A page in a browser must not post records (the sink under /__mockvideo has the admin guard; custom paths get it here).
  router.post([...sinkPaths], foreignGuard());
  router.post([...sinkPaths], parse, (req: Request, res: Response) => {
    const text = typeof req.body === 'string' ? req.body : '';
    const parsed = recordsOfBody(text, req.get('content-type'));
    if ('over' in parsed) {
      const error = `${parsed.over} Nothing of this body was kept (${req.method} ${req.path}).`;
      return void sendError(res, 'MV_BODY_TOO_LARGE', error);
    }
    if ('error' in parsed) {
      const kept =
        text.length > UNREADABLE_KEPT
          ? `${text.slice(0, UNREADABLE_KEPT)}… [mockvideo: ${text.length} characters, the first ${UNREADABLE_KEPT} kept]`
          : text;
      store.add(kept, [{ field: '', rule: 'object', message: parsed.error }]);
      return void sendError(res, 'MV_REQUEST_UNREADABLE', `${parsed.error} (${req.method} ${req.path})`);
    }
    const checked = prepareRecords(parsed.records);
    if (!('prepared' in checked)) {
      const error = `Record ${checked.index} of this body is ${checked.bytes} bytes of JSON; the analytics sink keeps records of at most ${MAX_ANALYTICS_RECORD_BYTES} bytes. Nothing of this body was kept (${req.method} ${req.path}).`;
      return void sendError(res, 'MV_BODY_TOO_LARGE', error);
    }
    const kept = checked.prepared.map(({ record, findings, bytes }) => store.add(record, findings, new Date(), bytes));
    res.json({ accepted: kept.length, records: kept.map(({ id, findings }) => ({ id, findings })) });
  });
  // A body over the limit: a clear 413 (not the host's 500), for the sink's paths only.
  router.use((error: Error & { type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (error.type !== 'entity.too.large' || !sinkPaths.has(req.path)) return next(error);
    const over = `This body is over ${MAX_ANALYTICS_BODY_BYTES} bytes, the most the analytics sink reads at once: send fewer records per request (each at most ${MAX_ANALYTICS_RECORD_BYTES} bytes). Nothing was kept (${req.method} ${req.path}).`;
    sendError(res, 'MV_BODY_TOO_LARGE', over);
  });
  router.all(ANALYTICS_PATH, (req: Request, res: Response) => {
    const error = `${req.method} is not allowed on ${ANALYTICS_PATH}: POST records, GET lists them, DELETE empties the list.`;
    res.set('allow', SINK_METHODS.join(', '));
    sendError(res, 'MV_METHOD_NOT_ALLOWED', error, { allowed: SINK_METHODS });
  });
  return router;
}
