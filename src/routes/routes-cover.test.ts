import { describe, expect, it } from 'vitest';
import { Replayer } from '../replay/replayer.js';
import { shippedCatalog } from '../scenarios/shipped-catalog.js';
import { routeOf } from '../normalise/path.js';
import { createRoutes, routesCover, type RoutesOptions } from './plan.js';
import { ScenarioResponder } from './responder.js';

const PATHS = [
  '/api/g1/meta/cp',
  '/scenarios/gallery/api/g1/ad_config',
  '/api//g1/%6Deta/setting/',
  '/api/g1/meta/upgrade',
  '/api/g1/meta/nothing',
  '/api/g1',
  '/__mockvideo/media/thumb/streamly/sv1001.jpg',
  '/__mockvideo/plugins',
  '/__mockvideo/plugins/streamly.apk',
  '/__mockvideo/apk/cinebox.apk',
  '/__mockvideo/requests',
  '/__mockvideo',
  '/scenarios/gallery/other',
  '/health',
  '/',
];
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE'];

const OPTIONS: Record<string, () => RoutesOptions> = {
  scenarios: () => ({
    scenarios: { responder: new ScenarioResponder(shippedCatalog()), activeScenario: () => 'default' },
  }),
  replay: () => ({ replay: { replayer: new Replayer([]) } }),
  'replay with a fallback scenario': () => {
    const scenarios = { responder: new ScenarioResponder(shippedCatalog()), activeScenario: () => 'default' };
    return { scenarios, replay: { replayer: new Replayer([]), recordMissing: true } };
  },
  record: () => ({ record: true }),
};

describe('routesCover', () => {
  it.each(Object.keys(OPTIONS))(
    'takes exactly the requests that the routes plan as anything but `none` (%s)',
    async (name) => {
      const options = OPTIONS[name]!();
      const routes = createRoutes(options);
      const disagree: string[] = [];
      for (const path of PATHS) {
        for (const method of METHODS) {
          const plan = await routes({ method, path, query: 'ref=', origin: 'http://x', headers: {} });
          if (routesCover(options, routeOf(path)) !== (plan.kind !== 'none'))
            disagree.push(`${method} ${path}: ${plan.kind}`);
        }
      }
      expect(disagree).toEqual([]);
    },
  );

  it('takes nothing outside the service paths and the downloads', () => {
    const options = OPTIONS.scenarios!();
    expect(
      ['/health', '/__mockvideo/requests', '/scenarios/gallery/other'].filter((path) =>
        routesCover(options, routeOf(path)),
      ),
    ).toEqual([]);
  });
});
