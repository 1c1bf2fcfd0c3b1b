import type { Request, Response } from 'express';
import { API_PREFIX, OPERATION_NAMES } from '../../contract/core.js';

/** The dashboard's path, from `/`. */
const DASHBOARD_PATH = '/__mockvideo/';

/** The operations as `GET /api/g1/<operation>`, for `/` and the 404 beside it. */
export const OPERATION_CALLS = OPERATION_NAMES.map((name) => `GET ${API_PREFIX}/${name}`);

/** The page of `/` for a browser: no script, no style, nothing loaded (its policy allows nothing). */
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>mockvideo</title></head>
<body>
<h1>mockvideo</h1>
<p>This server answers the operations under <code>${API_PREFIX}</code>. The QA dashboard (requests live, devices, start-ups, verify, scenario, faults): <a href="${DASHBOARD_PATH}">${DASHBOARD_PATH}</a></p>
<ul>${OPERATION_CALLS.map((call) => `<li><code>${call}</code></li>`).join('')}</ul>
</body>
</html>
`;

/**
 * `GET /` of a server with the dashboard: a browser (`Accept: text/html`) gets a page that links to
 * it; any other client JSON `{ "dashboard": "http://HOST/__mockvideo/", "operations": [...] }`.
 * Status 200.
 */
export function landing(req: Request, res: Response): void {
  if (req.accepts(['json', 'html']) === 'html') {
    res
      .set({ 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' })
      .type('html')
      .send(PAGE);
    return;
  }
  res.json({
    dashboard: `${req.protocol}://${req.get('host') ?? 'localhost'}${DASHBOARD_PATH}`,
    operations: OPERATION_CALLS,
  });
}
