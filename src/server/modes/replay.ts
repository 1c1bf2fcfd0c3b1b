import { RecordingError } from '../../errors.js';
import type { NormalisationPolicy } from '../../normalise/index.js';
import type { NearMissReport } from '../../replay/near-miss.js';
import { Replayer, type MatchMode } from '../../replay/replayer.js';
import { compiledShippedCatalog } from '../../scenarios/shipped-catalog.js';
import { loadCheckedRecordingIndex, type LoadRecordingIndexOptions } from '../../storage/load-recordings.js';
import { scenarioFallback, type RoutesOptions } from '../../routes/index.js';
import { BundleAnswers } from '../../bundle/answers.js';
import type { Bundle } from '../../bundle/format.js';
import { createServerContext, type ServerContext } from '../context.js';
import type { ClientRequest } from '../../state/client-state.js';
import type { StartedServers } from '../listen/start-servers.js';
import { engineRoutes, listenForDevices, type ServerSettings } from './device-server.js';
import type { RecordingOptions } from './record.js';

/** Options of {@link startReplayServer}: the settings `serve` shares (see `ServerSettings`), how the folder is read (`cacheBytes`, `onProgress`), and replay's own. */
export interface ReplayServerOptions extends ServerSettings, Omit<LoadRecordingIndexOptions, 'parse'> {
  /** The recording folder. */
  dir: string;
  match: MatchMode;
  policy: NormalisationPolicy;
  /** A scenario that answers what the recordings do not. */
  fallbackScenario?: string;
  /** `--record-missing`: fetch what has no exact recording from the upstream and record it into `dir` (see `recordInto`). */
  recordMissing?: Omit<RecordingOptions, 'dir' | 'policy'>;
  onMiss?: (report: NearMissReport) => void;
}

/** A running replay server; `stop()` resolves with the recordings never used. */
export interface RunningReplay {
  running: StartedServers;
  /** The live state: journal, admin API and the fallback's active scenario. */
  context: ServerContext;
  replayer: Replayer;
  /** How many recordings were loaded. */
  loaded: number;
  stop: () => Promise<{ unused: string[] }>;
}

/**
 * Starts `mockvideo replay DIR`: indexes every recording of `dir` (see {@link loadCheckedRecordingIndex}:
 * responses are read from their files when served, beyond a bounded cache), then serves them through
 * the routes (`createRoutes` with `replay`) in the Node host, with an optional fallback scenario and
 * the `--record-missing` proxy; the admin API and dashboard in Express. With `engine: 'msw'` the MSW
 * handlers of the same routes options answer instead, as the Node host's routes (`engineRoutes`).
 *
 * @throws RecordingError naming every corrupt or broken file: replay refuses to start.
 * @throws UnknownScenarioError / ScenarioError for a bad fallback scenario.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<RunningReplay> {
  const { dir, policy, fallbackScenario, recordMissing, engine = 'routes' } = options;
  const { index, problems } = await loadCheckedRecordingIndex(dir, policy, options);
  if (problems.length) throw new RecordingError(dir, problems);
  // The live state (journal, findings, admin API, dashboard); its active scenario answers the misses
  // when there is a fallback, and can be switched like in `serve`. Without a fallback no request is
  // answered from a scenario: the catalog compiled at build time is all the admin API lists, and no
  // scenario file is read (or compared with the shipped ones) at start.
  const latency = options.latency ?? 'none';
  const catalog =
    fallbackScenario || options.scenariosDir
      ? await (await import('../../storage/serve-catalog.js')).loadServeCatalog(options.scenariosDir)
      : compiledShippedCatalog();
  const context = createServerContext({
    ...options,
    mode: 'replay',
    catalog,
    scenariosAnswer: Boolean(fallbackScenario),
    scenario: fallbackScenario ?? 'default',
    details: {
      recordings: dir,
      ...(fallbackScenario ? { fallbackScenario } : {}),
      ...(recordMissing ? { upstream: recordMissing.upstream } : {}),
    },
    latency,
  });
  // One counter store with the fallback scenario's: a state reset resets both.
  const replayer = new Replayer(index, { match: options.match, state: context.responder.state, latency });
  const scenarios = {
    responder: context.responder,
    activeScenario: () => context.active.scenario,
    deviceScenario: (request: ClientRequest) => context.deviceScenarios.of(request),
    faults: context.faults,
  };
  // The proxy (and node:zlib) only with --record-missing: a plain replay starts without them.
  const recording = recordMissing
    ? await (await import('./record.js')).recordInto({ ...recordMissing, dir, policy }, (named) => replayer.add(named))
    : undefined;
  // The one routes options value of this mode; both engines are made from it.
  const planned: RoutesOptions = {
    replay: {
      replayer,
      faults: context.faults,
      recordMissing: !!recording,
      onMiss: options.onMiss,
      fallback: fallbackScenario ? scenarioFallback(scenarios) : undefined,
    },
    scenarios: fallbackScenario ? scenarios : undefined,
    strictRequests: () => context.strictRequests,
    clock: context.responder.clock,
    refuse: recording?.refuse,
  };
  const routes = await engineRoutes(engine, planned);
  let running: StartedServers;
  try {
    running = await listenForDevices(
      context,
      routes,
      options,
      recording && ((request, res, plan) => recording.proxy.forward(request, res, plan)),
    );
  } catch (error) {
    await recording?.release();
    throw error;
  }
  return {
    running,
    context,
    replayer,
    loaded: index.size,
    stop: async () => {
      await running.close();
      await recording?.finish();
      return { unused: replayer.unused() };
    },
  };
}

/** Options of {@link startBundleServer}: the settings `serve` shares, and the bundle. */
export interface BundleServerOptions extends ServerSettings {
  /** The bundle, read and checked (see `parseBundle`). */
  bundle: Bundle;
  /** Where it came from, for `GET /health`'s details (its path). */
  source: string;
  /** The policy of the near-miss reports' match keys. */
  policy: NormalisationPolicy;
  onMiss?: (report: NearMissReport) => void;
}

/** A running `replay FILE` server; `stop()` resolves with the bundle's exchanges no request got. */
export interface RunningBundleReplay {
  running: StartedServers;
  context: ServerContext;
  stop: () => Promise<{ unused: string[] }>;
}

/**
 * Starts `mockvideo replay FILE` for a start-up bundle: the routes with `bundle` (see `bundlePlan`:
 * each device's calls get the bundle's exchanges of their operation in its order, with their
 * statuses, bytes, faults and waits; a call it does not hold the near-miss 404) in the Node host,
 * server-wide faults on top; the admin API and dashboard in Express. With `engine: 'msw'` the MSW
 * handlers of the same routes options answer instead. No scenario answers: the catalog compiled at
 * build time is what the admin API lists.
 */
export async function startBundleServer(options: BundleServerOptions): Promise<RunningBundleReplay> {
  const { bundle, engine = 'routes' } = options;
  const context = createServerContext({
    ...options,
    mode: 'replay',
    catalog: compiledShippedCatalog(),
    scenario: 'default',
    details: { bundle: options.source },
  });
  const answers = new BundleAnswers(bundle, { state: context.responder.state, policy: options.policy });
  // The one routes options value of this mode; both engines are made from it.
  const planned: RoutesOptions = {
    bundle: { answers, faults: context.faults, onMiss: options.onMiss },
    strictRequests: () => context.strictRequests,
    clock: context.responder.clock,
  };
  const running = await listenForDevices(context, await engineRoutes(engine, planned), options);
  return {
    running,
    context,
    stop: async () => {
      await running.close();
      return { unused: answers.unused() };
    },
  };
}
