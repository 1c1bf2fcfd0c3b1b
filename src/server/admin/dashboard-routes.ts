import { existsSync, readFileSync } from 'node:fs';
import express, { type Response } from 'express';
import type { ServerContext } from '../context.js';
import { steeringSource } from './device-scenario-routes.js';
import { DeviceNames, deviceInLine, deviceSummaries } from './devices.js';
import { sendError } from './error-answers.js';
import { eventStream } from './event-stream.js';
import { startUpRoutes } from './start-up-routes.js';

/** The files `scripts/build-dashboard.mjs` writes, with their content types. */
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The page may load its own script, style and data, and nothing else. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The folder holding the built dashboard: `dist/dashboard/` next to this module once built, or the
 * repository's `dist/dashboard/` when this module runs from `src/` (tests through tsx).
 */
function dashboardFolder(): URL | undefined {
  // From dist/server/admin/ (the package's modules), dist/cli-bundle/ (the CLI's bundle), src/server/admin/ (tests).
  const candidates = [
    new URL('../../dashboard/', import.meta.url),
    new URL('../dashboard/', import.meta.url),
    new URL('../../../dist/dashboard/', import.meta.url),
  ];
  return candidates.find(
    (folder) => existsSync(new URL('app.js', folder)) && existsSync(new URL('index.html', folder)),
  );
}

/**
 * The QA dashboard under `/__mockvideo`: the page (`GET /`), its built script and style
 * (`GET /assets/app.js`, `/assets/app.css`), the live event stream (`GET /events`, bounded: see
 * `eventStream`), and what the page's device lanes read: `GET /devices` (`{ devices: DeviceSummary[] }`), `PUT
 * /devices/:sdevid/name` (`{ "name": "Pixel 7 of QA" }`; empty removes it; kept while the server
 * runs) and the start-ups with their verdicts and bundles (see `startUpRoutes`). The page reads and changes everything else
 * through the admin JSON API. When the dashboard is not built (`npm run build` writes
 * `dist/dashboard/`), the page answers 503 and says so.
 */
export function dashboardRoutes(context: ServerContext): express.Router {
  const router = express.Router({ strict: true });
  const folder = dashboardFolder();
  const sendFile = (res: Response, name: string) => {
    if (!folder) {
      const error =
        'The dashboard is not built: run "npm run build" (it writes dist/dashboard/), then restart mockvideo.';
      return void sendError(res, 'MV_DASHBOARD_NOT_BUILT', error);
    }
    res
      .set({
        'content-type': FILES[name]!,
        'cache-control': 'no-cache',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      })
      .send(readFileSync(new URL(name, folder)));
  };

  router.get('/', (req, res) => {
    // `/__mockvideo` without the slash: the same page, at its canonical address.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    sendFile(res, 'index.html');
  });
  router.get('/assets/:file', (req, res, next) => {
    const name = req.params.file;
    if (name === 'index.html' || !Object.hasOwn(FILES, name)) return next();
    sendFile(res, name);
  });
  const names = new DeviceNames();
  router.get('/events', eventStream(context, names));
  router.get('/devices', (_req, res) => {
    res.json({
      devices: deviceSummaries(
        context.journal.exchanges().map((x) => x.entry),
        names,
        steeringSource(context),
      ),
    });
  });
  router.put('/devices/:sdevid/name', express.json({ limit: '4kb' }), (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') {
      return void sendError(res, 'MV_USAGE', 'Send {"name": "<a readable name>"} (an empty name removes it).');
    }
    const { sdevid } = req.params;
    const given = names.set(sdevid, name);
    // As JSON strings: a control character in a name or a path cannot steer the terminal.
    const device = deviceInLine(sdevid);
    context.onAdminChange?.(given === null ? `${device}: name removed` : `${device} named ${JSON.stringify(given)}`);
    res.json({ sdevid, name: given });
  });
  router.use(startUpRoutes(context)); // GET /start-ups, GET /start-ups/:id/bundle
  return router;
}
