import { say } from '../../stderr.js';
import type { NamedRecording } from '../../normalise/index.js';
import type { ProxyLogEntry } from '../../record/exchange-log.js';
import { createRecordingProxy, type RecordingProxyOptions } from '../../record/proxy.js';
import { claimRecordingDir } from '../../storage/claim-recording-dir.js';
import { RecordingWriter } from '../../storage/recording-writer.js';
import { missingFolders, removeEmptyFolders } from '../../storage/created-folders.js';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { createRoutes, headerValue, type RouteRequest } from '../../routes/index.js';
import { createServerContext, type ServerContext } from '../context.js';
import { deviceListener } from '../host/device-host.js';
import { foreignRequest, ownHostNames } from '../admin/host-guard.js';
import { listen, type RunningServer } from '../listen/listen.js';

/** What `record` and `replay --record-missing` record with: the proxy's options (see `createRecordingProxy`), the folder and who may use it. */
export interface RecordingOptions extends Omit<RecordingProxyOptions, 'store' | 'onRecorded'> {
  /** The recording folder (created if missing), claimed while recording; with `only`, that operation's old recordings are replaced. */
  dir: string;
  /** More host names devices use to reach the recorder (`--allow-host`), besides this machine's own names and addresses and the emulator's `10.0.2.2`. */
  allowHosts?: readonly string[];
}

/** Options of {@link startRecorder}. */
export interface RecorderOptions extends RecordingOptions {
  port: number;
  host: string;
}

/**
 * The recording proxy into `options.dir`, with the folder claimed: `refuse` says why a request
 * comes from somewhere it must not (see `foreignRequest`); `finish()` lets exchanges in flight end,
 * names on stderr a recording whose flush failed, and releases the folder.
 */
export async function recordInto(options: RecordingOptions, onRecorded?: (named: NamedRecording) => void) {
  const release = await claimRecordingDir(options.dir);
  const writer = new RecordingWriter(options.dir, { upstream: options.upstream, replace: options.only });
  const proxy = createRecordingProxy({ ...options, store: (recording) => writer.queue(recording), onRecorded });
  const own = ownHostNames(options.allowHosts);
  return {
    proxy,
    release,
    refuse: (request: RouteRequest) =>
      foreignRequest(headerValue(request.headers, 'host'), headerValue(request.headers, 'origin'), own),
    finish: async () => {
      await proxy.drain();
      await proxy.close();
      for (const file of await writer.flush())
        say(`The recording ${file} in ${options.dir} may not be on the disk: flushing it failed.`);
      await release();
    },
  };
}

/** A running recorder. `stop()` stops accepting, lets exchanges in flight finish and be stored, and resolves with the count recorded. */
export interface RunningRecorder {
  running: RunningServer;
  /** The live state: the journal of recorded traffic and the admin API. */
  context: ServerContext;
  stop: () => Promise<{ recorded: number }>;
}

/** Formats a proxy log line: `GET meta/cp  200  recorded meta-cp/0a1b2c3d4e5f-000.json  3.1 ms`. */
export function formatProxyLine(entry: ProxyLogEntry): string {
  const what = entry.recorded ? `recorded ${entry.recorded}` : '';
  return [
    `${entry.method} ${entry.operation}`,
    String(entry.status),
    what,
    entry.note,
    `${entry.durationMs.toFixed(1)} ms`,
  ]
    .filter(Boolean)
    .join('  ');
}

/**
 * The loud line for an exchange whose recording could not be written (`entry.lost`), for stderr:
 * `GET meta/cp was answered (200 from the upstream) but NOT recorded: write error ENOSPC (...). ...`,
 * to print with `say`. Empty for an exchange that was not lost.
 */
export function lostExchangeLine(entry: ProxyLogEntry): string {
  if (!entry.lost) return '';
  return `${entry.method} ${entry.operation} was answered (${entry.status} from the upstream) but NOT recorded: write error ${entry.lost.code}. ${entry.lost.message} Check that the recording folder still exists, is a folder and has room, then repeat the request.`;
}

/**
 * Starts `mockvideo record`: the Node host whose routes pass every GET or HEAD of an operation (or
 * `meta/upgrade`) to the recording proxy (the rest gets the same answers as `serve`: 405, 404) to
 * `upstream`, writing into `dir` (see {@link recordInto}), with the journal and findings; the admin
 * API and dashboard in the admin app.
 */
export async function startRecorder(options: RecorderOptions): Promise<RunningRecorder> {
  // A recorder that cannot listen leaves no folder it made behind.
  const created = missingFolders(options.dir);
  let recorded = 0;
  const recording = await recordInto(options, () => void recorded++);
  // The journal, findings, admin API and dashboard see the recorded traffic too.
  const context = createServerContext({
    mode: 'record',
    catalog: await loadServeCatalog(),
    scenario: 'default',
    policy: options.policy,
    details: { upstream: options.upstream, recordings: options.dir },
  });
  const listener = deviceListener({
    context,
    routes: createRoutes({ record: true, strictRequests: () => context.strictRequests, refuse: recording.refuse }),
    // Loaded on first use, not with the command line.
    adminApp: async () => (await import('../admin/app.js')).createApp({ context }),
    pass: (request, res, plan) => recording.proxy.forward(request, res, plan),
  });
  let running: RunningServer;
  try {
    running = await listen(listener, options.port, options.host);
  } catch (error) {
    await recording.release();
    removeEmptyFolders(created);
    throw error;
  }
  return {
    running,
    context,
    stop: async () => {
      // Ends the dashboard's event streams, which would otherwise hold the shutdown up.
      context.closing.abort();
      await running.close(5000);
      await recording.finish();
      return { recorded };
    },
  };
}
