import type { HttpHandler } from 'msw';
import { Clock, parseClockSetting, type ClockFields } from '../clock/clock.js';
import type { FaultBoard } from '../faults/board.js';
import { faultBoardOf, type FaultSpec } from '../faults/plan-check.js';
import { ScenarioResponder } from '../routes/index.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import type { ScenarioName } from '../scenarios/scenario-names.js';
import { shippedCatalog } from '../scenarios/shipped-catalog.js';
import { routeHandlers } from './adapter.js';

/** Options of {@link createScenarioHandlers}. */
export interface ScenarioHandlerOptions {
  /** The scenario that answers when the request does not pick one; read on every request. */
  activeScenario: () => string;
  /** Origin the handlers match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /** The responder to use (shares sequence counters); default: a new one over the catalog. */
  responder?: ScenarioResponder;
  /**
   * Faults for every request, taken before the scenario's own, as `mockvideo serve --fault` takes
   * them: `--fault` flags (`'meta/setting=status:503'`) or the admin API's JSON (`{ operation:
   * 'meta/cp', kind: 'reset', times: 1 }`), or a server's `FaultBoard`; default: none.
   */
  faults?: FaultBoard | readonly FaultSpec[];
  /** Answer requests to operations with contract findings with 400; read per request. */
  strictRequests?: () => boolean;
}

/**
 * MSW handlers for mockvideo's device-facing surface, answered from scenarios: the six operations
 * (the scenario of the request: header `x-mockvideo-scenario`, path prefix `/scenarios/<name>`,
 * else `activeScenario()`), `meta/upgrade`, placeholder images, plugin and provider packages under
 * `/__mockvideo/`, with `x-mockvideo-findings` on every answer of an operation. Any other path under
 * `/api/g1` gets a 404 naming the operations; other paths and hosts are left to other handlers, or
 * to msw's unhandled-request option (`onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3).
 * What each request gets is the routes' (`createRoutes`): the same as `mockvideo serve` answers.
 *
 * @example createScenarioHandlers(catalog, { activeScenario: () => 'gallery' })
 * @see docs/contract.md#operations.
 */
export function createScenarioHandlers(catalog: ScenarioCatalog, options: ScenarioHandlerOptions): HttpHandler[] {
  const { activeScenario, strictRequests } = options;
  const faults = faultBoardOf(options.faults);
  const scenarios = { responder: options.responder ?? new ScenarioResponder(catalog), activeScenario, faults };
  return routeHandlers({ scenarios, strictRequests }, options.baseUrl);
}

/** What every form of {@link CreateHandlersOptions} takes. */
export interface HandlerSettings {
  /** Origin to match, e.g. `https://api.example.com`; default: any origin. */
  baseUrl?: string;
  /**
   * The clock of `"{now-2y}"`-style times in scenario data and of the `_ts` check of requests:
   * `{ frozen: '2026-01-31T12:00:00Z' }` (or Unix seconds), `{ offset: '-2d' }`, or both; default
   * real time. The fields of `PUT /__mockvideo/clock`. An invalid value throws `MockvideoError` (`MV_USAGE`).
   */
  clock?: ClockFields;
  /**
   * Faults, as `mockvideo serve --fault` plans them (same kinds, defaults, precedence and bytes):
   * each a `--fault` flag, `[OPERATION=]KIND[:ARG]` (`'meta/setting=status:503'`, `'delay:200-800'`,
   * `'localplay/recomm=reset'`), or the admin API's JSON, which also says for how many requests
   * (`{ operation: 'meta/cp', kind: 'status', times: 1 }`: the first request of each device fails,
   * the next ones answer). They win over the scenario's own faults, effect by effect. Default: none.
   * An invalid one throws `MockvideoError` (`MV_USAGE`) naming it (`faults[1]`) and its problem.
   */
  faults?: readonly FaultSpec[];
}

/**
 * Options of {@link createHandlers}. Without a `catalog` (`C` is `undefined`), `scenario` is a
 * {@link ScenarioName}, one of the shipped names: a misspelling does not compile, and TypeScript's
 * error lists the names (`Type '"galery"' is not assignable to type '"default" | … | "gallery" | …'.
 * Did you mean '"gallery"'?`). With a catalog of your own (`C` is `ScenarioCatalog`, e.g. from
 * `loadScenario(...)` of `mockvideo/node`), any `string`, checked when the handlers are created.
 * One object type rather than a union of two, so that TypeScript reports a misspelled name, not
 * the missing `catalog` of the other member.
 */
export interface CreateHandlersOptions<
  C extends ScenarioCatalog | undefined = ScenarioCatalog | undefined,
> extends HandlerSettings {
  /** The scenario to serve; default `default`. Without a `catalog`, one of `scenarioNames`. */
  scenario?: C extends ScenarioCatalog ? string : ScenarioName;
  /** Where the scenario comes from: the shipped scenarios overlaid by your files, or a catalog built with `buildCatalog`; default the shipped ones. */
  catalog?: C;
}

/** {@link CreateHandlersOptions} that serve a shipped scenario (`scenario` is a {@link ScenarioName}). */
export type ShippedScenarioOptions = CreateHandlersOptions<undefined>;

/** {@link CreateHandlersOptions} that serve a scenario of your own catalog (`scenario` is any of its names). */
export type CatalogScenarioOptions = CreateHandlersOptions<ScenarioCatalog>;

/**
 * MSW request handlers that serve one scenario, for `setupServer(...)` or `setupWorker(...)`.
 * Without a `catalog`, `scenario` is one of the shipped {@link ScenarioName}s (a misspelling does
 * not compile; narrow a run-time `string` with `isScenarioName`); with your own catalog, any of
 * its names.
 *
 * @throws UnknownScenarioError (its message lists the known names, and ends with `Did you mean "gallery"?` for a typo) for an unknown scenario.
 * @throws MockvideoError (`MV_USAGE`) for an invalid `clock` or fault, or a `baseUrl` that is no absolute URL.
 * @example
 * const server = setupServer(...createHandlers({ scenario: 'gallery' }));
 * @example
 * // one test of the app's retry path: meta/setting fails once per device, then answers
 * server.use(...createHandlers({ scenario: 'gallery', faults: [{ operation: 'meta/setting', kind: 'status', status: 503, times: 1 }] }));
 * @example
 * // "{now-2y}" in scenario data, and the _ts check, read 2026-01-31T12:00:00Z
 * createHandlers({ scenario: 'gallery', clock: { frozen: '2026-01-31T12:00:00Z' } });
 * @see createScenarioHandlers for what the handlers answer.
 */
export function createHandlers<C extends ScenarioCatalog | undefined = undefined>(
  options: CreateHandlersOptions<C> = {},
): HttpHandler[] {
  const catalog = options.catalog ?? shippedCatalog();
  const scenario = options.scenario ?? 'default';
  catalog.get(scenario);
  const clock = options.clock === undefined ? undefined : new Clock(parseClockSetting(options.clock));
  const responder = clock && new ScenarioResponder(catalog, { clock });
  return createScenarioHandlers(catalog, {
    activeScenario: () => scenario,
    responder,
    baseUrl: options.baseUrl,
    faults: options.faults,
  });
}
