import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operationOfPath, toServiceJson } from '../../src/contract/index.js';
import { item, minimalScenario } from '../support/minimal-scenario.js';

/** Structural changes a test turns on between runs, as a service release would. */
export interface ServiceChanges {
  /** meta/setting gains a field `new_flag`. */
  addField: boolean;
  /** meta/setting's `codec_level` is sent as a number instead of a string holding one. */
  numberType: boolean;
  /** Every localplay/recomm item gains a field `rank`. */
  itemShape: boolean;
}

/** A fake of the live service on 127.0.0.1 whose answers a test can change between runs. */
export interface FakeService {
  url: string;
  /** Every request target (path and query) as received. */
  received: string[];
  changes: ServiceChanges;
  /** Milliseconds each answer waits; the most requests seen in flight at once. */
  delayMs: number;
  maxInFlight: number;
  close: () => Promise<void>;
}

/**
 * Starts a fake service: the minimal scenario's data, escaped like Go's encoding/json (`&`, `<`, `>`
 * as `\u0026`, `\u003c`, `\u003e`), media URLs on its own host, values that vary on every call (the
 * plugin's `updated_at` and `market_sign.nonce`, ad_config's echo of the query with its `_nonce`, and its `session`: the `_nonce` and the `_sdevid`),
 * and a meta/setting counter (so two calls give two answers).
 */
export async function startFakeService(): Promise<FakeService> {
  const scenario = minimalScenario();
  let calls = 0;
  let settingCalls = 0;
  const state = {
    received: [] as string[],
    changes: { addField: false, numberType: false, itemShape: false },
    delayMs: 0,
    maxInFlight: 0,
  };
  let inFlight = 0;
  const server = createServer(async (req, res) => {
    const target = req.url ?? '/';
    state.received.push(target);
    state.maxInFlight = Math.max(state.maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const [path = '', search = ''] = target.split('?');
    const operation = operationOfPath(path);
    const query = new URLSearchParams(search);
    calls++;
    const own = `http://${req.headers.host}`;
    let data: unknown;
    switch (operation) {
      case 'ad_config':
        // A changing value that holds the device id after a short prefix: a cut cell would show part of it.
        data = { enabled: true, echo: search, session: `${query.get('_nonce')}.${query.get('_sdevid')}` };
        break;
      case 'meta/cp':
        data = scenario.operations['meta/cp'].data.map((cp) => ({
          ...cp,
          app_icon: `${own}/__mockvideo/media/icon/${cp.id}.png`,
        }));
        break;
      case 'meta/setting': {
        const setting: Record<string, unknown> = {
          ...scenario.operations['meta/setting'].data,
          recommend_show_times_interval: ++settingCalls,
        };
        if (state.changes.addField) setting.new_flag = 1;
        if (state.changes.numberType) setting.codec_level = 3;
        data = setting;
        break;
      }
      case 'meta/plugin':
        data = scenario.operations['meta/plugin'].data.map((plugin) => ({
          ...plugin,
          updated_at: 1_700_000_000 + calls,
          market_sign: { ...plugin.market_sign, nonce: `${calls}:${calls * 7}` },
        }));
        break;
      case 'localplay/diversion': {
        const items =
          query.get('is_from_gallery') === 'true' ? [item('g1', 0, 9, 'Gallery <one> & more')] : [item('n1', 0, 7)];
        data = { end: items, exit: items, suspend: [] };
        break;
      }
      case 'localplay/recomm':
        // Images on the service's own host: the recorder keeps its origin, so from-recordings makes them {origin}.
        data = [item('r1', 0, 3, 'Recomm <b>'), item('r2', 1, 2)]
          .map((it) => ({ ...it, image_url: `${own}/images/${it.id}.jpg` }))
          .map((it, rank) => (state.changes.itemShape ? { ...it, rank } : it));
        break;
      default:
        res.writeHead(404).end();
        return;
    }
    const body = toServiceJson({ data, msg: 'OK', result: 1 }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service = state as FakeService;
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}
