import { createRequire } from 'node:module';
import type { FSWatcher } from 'chokidar';
import { MockvideoError } from '../errors.js';
import type { ScenarioCatalog } from '../scenarios/index.js';
import { loadScenarioCatalog } from './load-catalog.js';
import { isScenarioFileName } from './scenario-files.js';
import { watchFolder } from './watch-folder.js';

/** What a reload attempt gave: the new catalog, or the error that kept the last good one serving. */
export type ReloadOutcome = { ok: true; catalog: ScenarioCatalog } | { ok: false; error: Error };

/** Options of {@link watchScenarios}. */
export interface WatchOptions {
  /** The folder of scenario files (as for `loadScenarioCatalog`). */
  dir: string;
  /** Called after every change settles, with the reloaded catalog or why it was refused. */
  onReload: (outcome: ReloadOutcome) => void;
  /** Milliseconds of quiet after the last change before reloading (editors write in bursts); default 100. */
  debounceMs?: number;
}

/**
 * Watches a folder of scenario files (with chokidar) and reloads the whole catalog when one is
 * added, changed or removed. A broken edit is reported and does not replace anything: the last
 * good catalog keeps serving. Returns the watcher; `close()` it to stop.
 */
export function watchScenarios(options: WatchOptions): FSWatcher {
  return watchFolder({
    dir: options.dir,
    depth: 0,
    accepts: isScenarioFileName,
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    onChange: () => {
      try {
        options.onReload({ ok: true, catalog: loadScenarioCatalog(options.dir) });
      } catch (error) {
        options.onReload({ ok: false, error: error instanceof Error ? error : new MockvideoError('MV_SCENARIO_INVALID', String(error)) });
      }
    },
  });
}
