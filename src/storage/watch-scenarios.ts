import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { isScenarioFileName } from './scenario-files.js';
import { loadServeCatalog } from './serve-catalog.js';
import { watchFolder, type FolderWatcher } from './watch-folder.js';

/** What a reload attempt gave: the new catalog, or the error that kept the last good one serving. */
type ReloadOutcome = { ok: true; catalog: ScenarioCatalog } | { ok: false; error: Error };

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
 * Watches a folder of scenario files (see `watchFolder`) and reloads the whole catalog when one is
 * added, changed or removed. A broken edit is reported and does not replace anything: the last
 * good catalog keeps serving. Reloads run one after the other, in the order of the changes (the
 * scenario parser is loaded with the first reload that has files to parse). Returns the watcher;
 * `close()` it to stop.
 */
export function watchScenarios(options: WatchOptions): FolderWatcher {
  let reloads: Promise<void> = Promise.resolve();
  return watchFolder({
    dir: options.dir,
    depth: 0,
    accepts: isScenarioFileName,
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    onChange: () => {
      reloads = reloads
        .then(() => loadServeCatalog(options.dir))
        .then(
          (catalog) => options.onReload({ ok: true, catalog }),
          // loadServeCatalog throws only errors (ScenarioError, MockvideoError, the file system's).
          (error: unknown) => options.onReload({ ok: false, error: error as Error }),
        )
        // An onReload that throws fails as it did when reloads were synchronous; the next reload still runs.
        .catch((error: unknown) =>
          queueMicrotask(() => {
            throw error;
          }),
        );
    },
  });
}
