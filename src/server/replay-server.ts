import type { RequestListener } from 'node:http';
import type { RequestHandler } from 'express';
import type { HttpHandler } from 'msw';
import { PREFIX, RecordingError } from '../errors.js';
import type { NormalisationPolicy } from '../normalise/index.js';
import { createRecordingProxy, type ProxyLogEntry } from '../record/index.js';
import type { NearMissReport } from '../replay/near-miss.js';
import { MATCH_HEADER, Replayer, type MatchMode } from '../replay/replayer.js';
import { loadScenarioCatalog } from '../storage/load-catalog.js';
import { loadRecordingIndex } from '../storage/load-recordings.js';
import { RecordingWriter, claimRecordingDir } from '../storage/recordings.js';
import type { ClockSetting } from '../clock/clock.js';
import type { LatencySetting } from '../latency/latency.js';
import type { StateScope } from '../state/client-state.js';
import { createServerContext, type ServerContext } from './context.js';
import { clockAware } from './clock-aware.js';
import { fastPathListener } from './fast-path-listener.js';
import { listen, type RunningServer } from './listen.js';
import type { RequestLogEntry } from './request-log.js';

/** Options of {@link startReplayServer}. */
export interface ReplayServerOptions {
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
  /** Hears each recording file as it is read at start (1-based count, total, file), for a progress bar. */
  onProgress?: (done: number, total: number, file: string) => void;
  /** Bytes of responses kept in memory; the others are read from their files when served. Default 8 MiB. */
  cacheBytes?: number;
  /** `--state`: sequences per client (default) or for the server; `quietGapMs` ends a client's start-up. */
  state?: StateScope;
  quietGapMs?: number;
  /** `--clock` / `--clock-offset`. */
  clock?: ClockSetting;
  /** `--latency`: how recorded latencies are served; default `none` (at once). */
  latency?: LatencySetting;
  /**
   * Answer the requests a recording answers through the replay fast path (see `createReplayFastPath`)
   * in front of Express and msw; default true. `false` sends every request through Express and msw.
   */
  fastPath?: boolean;
}

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
 * Starts `mockvideo replay DIR`: indexes every recording of `dir` (see {@link loadRecordingIndex}:
 * responses are read from the files when served, beyond a bounded cache), then serves them (see
 * `createReplayHandlers`), with an optional fallback scenario and `--record-missing` proxy. Requests
 * a recording answers take the replay fast path (unless `fastPath: false`); the rest go to Express.
 *
 * @throws RecordingError naming every corrupt or broken file: replay refuses to start.
 * @throws UnknownScenarioError / ScenarioError for a bad fallback scenario.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<RunningReplay> {
  const { index, problems } = loadRecordingIndex(options.dir, options.policy, { ...(options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes }), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  if (problems.length) throw new RecordingError(options.dir, problems.map((p) => ({ source: p.file, path: p.path, message: p.message })));
  // The live state (journal, findings, admin API, dashboard); its active scenario answers the misses
  // when there is a fallback, and can be switched like in `serve`.
  const latency = options.latency ?? 'none';
  const context = createServerContext({
    mode: 'replay',
    catalog: loadScenarioCatalog(options.scenariosDir),
    scenario: options.fallbackScenario ?? 'default',
    policy: options.policy,
    details: { recordings: options.dir, ...(options.recordMissing ? { upstream: options.recordMissing.upstream } : {}) },
    ...(options.state ? { state: options.state } : {}),
    ...(options.quietGapMs !== undefined ? { quietGapMs: options.quietGapMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    latency,
  });
  // One counter store with the fallback scenario's: a state reset resets both.
  const replayer = new Replayer(index, { match: options.match, state: context.responder.state, latency });
  // The HTTP host and the MSW handlers are loaded here, not with the command line (see `serve`'s fast path).
  // One after the other: http-middleware require()s msw, which must not be half-loaded by a parallel import().
  const { contextHandlers } = await import('./context-handlers.js');
  const { createReplayHandlers } = await import('../replay/handlers.js');
  const { createApp } = await import('./app.js');
  const fallback: HttpHandler[] | undefined = options.fallbackScenario ? contextHandlers(context) : undefined;
  const after: RequestHandler[] = [];
  let proxy: ReturnType<typeof createRecordingProxy> | undefined;
  let writer: RecordingWriter | undefined;
  let release: (() => Promise<void>) | undefined;
  if (options.recordMissing) {
    release = await claimRecordingDir(options.dir);
    writer = new RecordingWriter(options.dir);
    proxy = createRecordingProxy({
      upstream: options.recordMissing.upstream,
      timeoutMs: options.recordMissing.timeoutMs,
      policy: options.policy,
      store: (recording) => writer!.write(recording),
      recordFailures: options.recordMissing.recordFailures ?? false,
      insecureUpstream: options.recordMissing.insecureUpstream ?? false,
      responseHeaders: { recorded: { [MATCH_HEADER]: 'recorded' }, passthrough: { [MATCH_HEADER]: 'passthrough' } },
      onRecorded: (named) => replayer.add(named),
      ...(options.onRecorded ? { onExchange: options.onRecorded } : {}),
    });
    after.push(proxy.middleware as unknown as RequestHandler);
  }
  const handlers = createReplayHandlers([], {
    replayer,
    ...(fallback ? { fallback } : {}),
    recordMissing: Boolean(options.recordMissing),
    ...(options.onMiss ? { onMiss: options.onMiss } : {}),
  });
  const app = createApp({ handlers, after, context, ...(options.onRequest ? { onRequest: options.onRequest } : {}) });
  let listener: RequestListener = app;
  if (options.fastPath ?? true) {
    const { createReplayFastPath } = await import('./replay-fast-path.js');
    // With a fallback scenario or --record-missing, what has no exact recording is theirs to answer.
    const fast = createReplayFastPath(context, { replayer, exactOnly: Boolean(fallback || options.recordMissing), ...(options.onRequest ? { onRequest: options.onRequest } : {}) });
    listener = clockAware(context, fastPathListener(fast, app), app);
  }
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
      for (const file of (await writer?.flush()) ?? []) process.stderr.write(`${PREFIX} The recording ${file} in ${options.dir} may not be on the disk: flushing it failed.\n`);
      await release?.();
      return { unused: replayer.unused() };
    },
  };
}
