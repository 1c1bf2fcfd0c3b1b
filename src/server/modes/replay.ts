import type { RequestHandler } from 'express';
import { PREFIX, RecordingError } from '../../errors.js';
import type { NormalisationPolicy } from '../../normalise/index.js';
import type { createRecordingProxy, ProxyLogEntry } from '../../record/index.js';
import type { NearMissReport } from '../../replay/near-miss.js';
import { Replayer, type MatchMode } from '../../replay/replayer.js';
import { compiledShippedCatalog } from '../../scenarios/shipped-catalog.js';
import { loadCheckedRecordingIndex } from '../../storage/load-recordings.js';
import { claimRecordingDir } from '../../storage/claim-recording-dir.js';
import { RecordingWriter } from '../../storage/recording-writer.js';
import {
  RECORD_MISSING_MARKS,
  createRoutes,
  headerValue,
  scenarioFallback,
  type RouteRequest,
} from '../../routes/index.js';
import { createServerContext, type ServerContext, type ServerContextOptions } from '../context.js';
import { deviceListener } from '../host/device-host.js';
import { listen, type RunningServer } from '../listen/listen.js';
import type { RequestLogEntry } from '../host/request-log.js';
import type { Engine } from './serve.js';

/**
 * Options of {@link startReplayServer}: the live state's own (`--fault`, `--strict-requests`,
 * `--admin-token`, `--journal-size`, `--state`, `--gap`, `--clock`, `--latency`: see
 * `ServerContextOptions`, not copied here), and replay's.
 */
export interface ReplayServerOptions extends Pick<
  ServerContextOptions,
  'faults' | 'strictRequests' | 'adminToken' | 'journalSize' | 'state' | 'quietGapMs' | 'clock' | 'latency'
> {
  dir: string;
  match: MatchMode;
  policy: NormalisationPolicy;
  port: number;
  host: string;
  /** A scenario that answers what the recordings do not. */
  fallbackScenario?: string;
  scenariosDir?: string;
  /** Fetch and record what is missing from this upstream (`timeoutMs` in milliseconds; `insecureUpstream`: accept a certificate that does not verify). */
  recordMissing?: { upstream: string; timeoutMs: number; recordFailures?: boolean; insecureUpstream?: boolean };
  onRequest?: (entry: RequestLogEntry) => void;
  onMiss?: (report: NearMissReport) => void;
  onRecorded?: (entry: ProxyLogEntry) => void;
  /** More host names devices use (`--allow-host`), for the `--record-missing` guard (see `startRecorder`). */
  allowHosts?: readonly string[];
  /** Hears each recording file as it is read at start (1-based count, total, file), for a progress bar. */
  onProgress?: (done: number, total: number, file: string) => void;
  /** Bytes of responses kept in memory; the others are read from their files when served. Default 8 MiB. */
  cacheBytes?: number;
  /** Default `routes`; `msw` (`--engine msw`): the generated replay handlers through msw's `getResponse` in Express (slower, same answers). */
  engine?: Engine;
}

/** What `replay DIR` and `serve --replay DIR` set from their flags: {@link ReplayServerOptions} without the listeners the command line adds. */
export type ReplaySetup = Omit<ReplayServerOptions, 'onRequest' | 'onMiss' | 'onRecorded' | 'onProgress'>;

/** A running replay server; `stop()` resolves with the recordings never used. */
export interface RunningReplay {
  running: RunningServer;
  /** The live state: journal, admin API and the fallback's active scenario. */
  context: ServerContext;
  replayer: Replayer;
  /** How many recordings were loaded. */
  loaded: number;
  stop: () => Promise<{ unused: string[] }>;
}

/**
 * Starts `mockvideo replay DIR`: indexes every recording of `dir` (see {@link loadCheckedRecordingIndex}:
 * responses are read from the files when served, beyond a bounded cache), then serves them through
 * the routes (`createRoutes` with `replay`) in the Node host, with an optional fallback scenario and
 * the `--record-missing` proxy; the admin API and dashboard in Express. With `engine: 'msw'` the
 * generated replay handlers (`createReplayHandlers`) answer instead, inside Express.
 *
 * @throws RecordingError naming every corrupt or broken file: replay refuses to start.
 * @throws UnknownScenarioError / ScenarioError for a bad fallback scenario.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<RunningReplay> {
  const { index, problems } = await loadCheckedRecordingIndex(options.dir, options.policy, {
    ...(options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  if (problems.length)
    throw new RecordingError(
      options.dir,
      problems.map((p) => ({ source: p.file, path: p.path, message: p.message })),
    );
  // The live state (journal, findings, admin API, dashboard); its active scenario answers the misses
  // when there is a fallback, and can be switched like in `serve`. Without a fallback no request is
  // answered from a scenario: the catalog compiled at build time is all the admin API lists, and no
  // scenario file is read (or compared with the shipped ones) at start.
  const latency = options.latency ?? 'none';
  const catalog =
    options.fallbackScenario || options.scenariosDir
      ? await (await import('../../storage/serve-catalog.js')).loadServeCatalog(options.scenariosDir)
      : compiledShippedCatalog();
  const context = createServerContext({
    mode: 'replay',
    catalog,
    scenario: options.fallbackScenario ?? 'default',
    policy: options.policy,
    details: {
      recordings: options.dir,
      ...(options.fallbackScenario ? { fallbackScenario: options.fallbackScenario } : {}),
      ...(options.recordMissing ? { upstream: options.recordMissing.upstream } : {}),
    },
    ...(options.state ? { state: options.state } : {}),
    ...(options.quietGapMs !== undefined ? { quietGapMs: options.quietGapMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.strictRequests !== undefined ? { strictRequests: options.strictRequests } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
    ...(options.journalSize !== undefined ? { journalSize: options.journalSize } : {}),
    latency,
  });
  // One counter store with the fallback scenario's: a state reset resets both.
  const replayer = new Replayer(index, { match: options.match, state: context.responder.state, latency });
  const engine = options.engine ?? 'routes';
  const scenarios = {
    responder: context.responder,
    activeScenario: () => context.active.scenario,
    faults: context.faults,
  };
  const strictRequests = () => context.strictRequests;
  let proxy: ReturnType<typeof createRecordingProxy> | undefined;
  /** Why a request the proxy would forward comes from somewhere it must not (see `foreignRequest`); with the proxy only. */
  let refuse: ((request: RouteRequest) => string | undefined) | undefined;
  let writer: RecordingWriter | undefined;
  let release: (() => Promise<void>) | undefined;
  if (options.recordMissing) {
    release = await claimRecordingDir(options.dir);
    writer = new RecordingWriter(options.dir);
    // The proxy (and node:zlib) only with --record-missing: a plain replay starts without them.
    const [{ createRecordingProxy }, { foreignRequest, ownHostNames }] = [
      await import('../../record/index.js'),
      await import('../admin/host-guard.js'),
    ];
    const own = ownHostNames(options.allowHosts);
    refuse = (request) =>
      foreignRequest(headerValue(request.headers, 'host'), headerValue(request.headers, 'origin'), own);
    proxy = createRecordingProxy({
      upstream: options.recordMissing.upstream,
      timeoutMs: options.recordMissing.timeoutMs,
      policy: options.policy,
      store: (recording) => writer!.queue(recording),
      recordFailures: options.recordMissing.recordFailures ?? false,
      insecureUpstream: options.recordMissing.insecureUpstream ?? false,
      onRecorded: (named) => replayer.add(named),
      ...(options.onRecorded ? { onExchange: options.onRecorded } : {}),
    });
  }
  const replay = {
    replayer,
    faults: context.faults,
    ...(options.recordMissing ? { recordMissing: true } : {}),
    ...(options.onMiss ? { onMiss: options.onMiss } : {}),
  };
  // The Express host (admin API, dashboard; with --engine msw the replay handlers) is loaded here, not with the command line.
  let device: RequestHandler | undefined;
  if (engine === 'msw') {
    const { mswEngine } = await import('../host/msw-engine.js');
    const { createScenarioHandlers } = await import('../../msw/handlers.js');
    const { createReplayHandlers } = await import('../../msw/replay-handlers.js');
    const fallback = options.fallbackScenario
      ? createScenarioHandlers(context.catalog, { ...scenarios, strictRequests })
      : undefined;
    device = mswEngine(
      createReplayHandlers([], { ...replay, ...(fallback ? { fallback } : {}), clock: context.responder.clock }),
    );
  }
  // With the routes, the Express host (admin API, dashboard) loads on the first request that needs it, not before listening.
  const makeApp = async () =>
    (await import('../admin/app.js')).createApp({
      context,
      ...(device ? { device } : {}),
      ...(proxy && device ? { after: [proxy.middleware(RECORD_MISSING_MARKS) as unknown as RequestHandler] } : {}),
    });
  const app = device ? await makeApp() : undefined;
  const routes = createRoutes({
    replay: { ...replay, ...(options.fallbackScenario ? { fallback: scenarioFallback(scenarios) } : {}) },
    ...(options.fallbackScenario ? { scenarios } : {}),
    strictRequests,
    clock: context.responder.clock,
    ...(refuse ? { refuse } : {}),
  });
  const listener = deviceListener({
    context,
    ...(engine === 'routes' ? { routes } : {}),
    host: () => app ?? makeApp(),
    ...(proxy && refuse ? { pass: (req, res, plan) => proxy!.forward(req, res, plan), refuse } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  const running = await listen(listener, options.port, options.host);
  return {
    running,
    context,
    replayer,
    loaded: index.size,
    stop: async () => {
      // Ends the dashboard's event streams, which would otherwise hold the shutdown up.
      context.closing.abort();
      const idle = setInterval(() => running.server.closeIdleConnections(), 50);
      await running.close();
      clearInterval(idle);
      await proxy?.drain();
      await proxy?.close();
      for (const file of (await writer?.flush()) ?? [])
        process.stderr.write(
          `${PREFIX} The recording ${file} in ${options.dir} may not be on the disk: flushing it failed.\n`,
        );
      await release?.();
      return { unused: replayer.unused() };
    },
  };
}
