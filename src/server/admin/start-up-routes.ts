import express from 'express';
import { buildBundle, bundleText } from '../../bundle/index.js';
import type { JournalExchange } from '../../journal/index.js';
import { startUpVerdicts } from '../../verify/start-ups.js';
import { DEFAULT_QUIET_GAP_SECONDS } from '../../verify/verify.js';
import type { ServerContext } from '../context.js';
import { sendError } from './error-answers.js';

/** The quiet gap of `?gap=SECONDS` (default {@link DEFAULT_QUIET_GAP_SECONDS}; one that is no positive number is the default too). */
function gapOf(req: express.Request): number {
  const asked = Number(
    new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get('gap') ?? DEFAULT_QUIET_GAP_SECONDS,
  );
  return Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_QUIET_GAP_SECONDS;
}

/**
 * The admin calls of start-ups (mounted under `/__mockvideo`, behind its guard):
 * - `GET /start-ups?gap=SECONDS`: `{ startUps: StartUpVerdict[] }`, each burst of each device with
 *   verify's verdict on it and its `id` (the journal id of its first request);
 * - `GET /start-ups/ID/bundle?gap=SECONDS`: that start-up's bundle (`mockvideo-bundle/1`, see
 *   docs/bundles.md) as a JSON attachment `mockvideo-bundle-ID.json`; 404 naming the start-ups the
 *   journal holds for an id it does not.
 */
export function startUpRoutes(context: ServerContext): express.Router {
  const router = express.Router();
  const verdicts = (gap: number) =>
    startUpVerdicts(
      context.journal.exchanges().map((x) => x.entry),
      gap,
    );

  router.get('/start-ups', (req, res) => {
    res.json({ startUps: verdicts(gapOf(req)) });
  });

  router.get('/start-ups/:id/bundle', (req, res) => {
    const gap = gapOf(req);
    const all = verdicts(gap);
    const verdict = all.find((v) => String(v.id) === req.params.id);
    if (!verdict) {
      const error = `No start-up ${req.params.id} in the journal (it keeps the last ${context.journal.limit} requests): GET /__mockvideo/start-ups lists their ids.`;
      return void sendError(res, 'MV_NOT_IN_JOURNAL', error, { startUps: all.map((v) => v.id) });
    }
    const exchanges = verdict.ids.map((id) => context.journal.get(id)).filter((x): x is JournalExchange => !!x);
    const bundle = buildBundle({
      exchanges,
      verdict,
      quietGapSeconds: gap,
      policy: context.policy,
      scenario: (name) => {
        if (!context.catalog.has(name)) return undefined;
        const scenario = context.catalog.get(name);
        return { description: scenario.description, extends: [...scenario.ancestry] };
      },
      clock: context.responder.clock.view(),
      fuzz: context.fuzz?.report(),
      server: { mode: context.mode, activeScenario: context.active.scenario, state: context.responder.state.scope },
    });
    // attachment() first: it sets a type from the extension, which type() then states with its charset.
    res.attachment(`mockvideo-bundle-${verdict.id}.json`).type('application/json');
    res.send(bundleText(bundle));
  });
  return router;
}
