import type { OperationName } from '../../contract/index.js';
import { PREFIX } from '../../errors.js';
import type { NormalisationPolicy } from '../../normalise/index.js';
import { createRecordingProxy, type ProxyLogEntry } from '../../record/index.js';
import { claimRecordingDir } from '../../storage/claim-recording-dir.js';
import { RecordingWriter } from '../../storage/recording-writer.js';
import { missingFolders, removeEmptyFolders } from '../../storage/created-folders.js';
import { loadServeCatalog } from '../../storage/serve-catalog.js';
import { createRoutes, headerValue } from '../../routes/index.js';
import { createServerContext, type ServerContext } from '../context.js';
import { deviceListener } from '../host/device-host.js';
import { foreignRequest, ownHostNames } from '../admin/host-guard.js';
import { listen, type RunningServer } from '../listen/listen.js';

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  upstream: string;
  out: string;
  port: number;
  host: string;
  /** Milliseconds. */
  timeoutMs: number;
  /** The largest upstream body recorded, in bytes (see `createRecordingProxy`). */
  maxBodyBytes?: number;
  policy: NormalisationPolicy;
  only?: readonly OperationName[];
  recordFailures?: boolean;
  /** Accept an https upstream whose certificate does not verify (see `createRecordingProxy`). */
  insecureUpstream?: boolean;
  onExchange?: (entry: ProxyLogEntry) => void;
  /** More host names devices use to reach the recorder (`--allow-host`), besides this machine's own names and addresses and the emulator's `10.0.2.2`. */
  allowHosts?: readonly string[];
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
 * `[mockvideo] GET meta/cp was answered (200 from the upstream) but NOT recorded: write error ENOSPC (...). ...`.
 * Empty for an exchange that was not lost.
 */
export function lostExchangeLine(entry: ProxyLogEntry): string {
  if (!entry.lost) return '';
  return `[mockvideo] ${entry.method} ${entry.operation} was answered (${entry.status} from the upstream) but NOT recorded: write error ${entry.lost.code}. ${entry.lost.message.replace(/^\[mockvideo\] /, '')} Check that the recording folder still exists, is a folder and has room, then repeat the request.\n`;
}

/**
 * Starts `mockvideo record`: the Node host whose routes pass every GET or HEAD of an operation (or
 * `meta/upgrade`) to the recording proxy (the rest gets the same answers as `serve`: 405, 404) to `upstream`, writing into `out` (with `only`, that operation's old recordings
 * are replaced), with the journal and findings; the admin API and dashboard in the Express host.
 */
export async function startRecorder(options: RecorderOptions): Promise<RunningRecorder> {
  // A recorder that cannot listen leaves no folder it made behind.
  const created = missingFolders(options.out);
  const release = await claimRecordingDir(options.out);
  const writer = new RecordingWriter(options.out, {
    upstream: options.upstream,
    ...(options.only ? { replace: options.only } : {}),
  });
  let recorded = 0;
  const proxy = createRecordingProxy({
    upstream: options.upstream,
    timeoutMs: options.timeoutMs,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    policy: options.policy,
    store: (recording) => writer.queue(recording),
    ...(options.only ? { only: options.only } : {}),
    recordFailures: options.recordFailures ?? false,
    insecureUpstream: options.insecureUpstream ?? false,
    onRecorded: () => void recorded++,
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  // The journal, findings, admin API and dashboard see the recorded traffic too.
  const context = createServerContext({
    mode: 'record',
    catalog: await loadServeCatalog(),
    scenario: 'default',
    policy: options.policy,
    details: { upstream: options.upstream, recordings: options.out },
  });
  const own = ownHostNames(options.allowHosts);
  // Loaded on first use, not with the command line: `mockvideo serve` never needs the recording host.
  const listener = deviceListener({
    context,
    routes: createRoutes({
      record: true,
      strictRequests: () => context.strictRequests,
      refuse: (request) =>
        foreignRequest(headerValue(request.headers, 'host'), headerValue(request.headers, 'origin'), own),
    }),
    host: async () => (await import('../admin/app.js')).createApp({ context }),
    pass: (req, res, plan) => proxy.forward(req, res, plan),
  });
  let running: RunningServer;
  try {
    running = await listen(listener, options.port, options.host);
  } catch (error) {
    await release();
    removeEmptyFolders(created);
    throw error;
  }
  return {
    running,
    context,
    stop: async () => {
      // Ends the dashboard's event streams, which would otherwise hold the shutdown up.
      context.closing.abort();
      // Connections that go idle after close() started would otherwise wait out the grace period.
      const idle = setInterval(() => running.server.closeIdleConnections(), 50);
      await running.close(5000);
      clearInterval(idle);
      await proxy.drain();
      await proxy.close();
      for (const file of await writer.flush())
        process.stderr.write(
          `${PREFIX} The recording ${file} in ${options.out} may not be on the disk: flushing it failed.\n`,
        );
      await release();
      return { recorded };
    },
  };
}
