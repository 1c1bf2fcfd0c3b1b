import { createRequire } from 'node:module';
import type { FSWatcher } from 'chokidar';

/** Options of {@link watchFolder}. */
export interface WatchFolderOptions {
  dir: string;
  /** How many folder levels below `dir` to watch: 0 for its files only. */
  depth: number;
  /** Which files count (others are ignored). */
  accepts: (file: string) => boolean;
  /** Called once the changes settle. */
  onChange: () => void;
  /** Milliseconds of quiet after the last change (editors and tools write in bursts); default 100. */
  debounceMs?: number;
}

/**
 * Watches a folder with chokidar and calls `onChange` once a burst of added, changed or removed
 * files settles. Returns the watcher; `close()` it to stop.
 */
export function watchFolder(options: WatchFolderOptions): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  // chokidar is loaded only when a server watches a folder, not at every start-up.
  const { watch } = createRequire(import.meta.url)('chokidar') as typeof import('chokidar');
  const watcher = watch(options.dir, { ignoreInitial: true, depth: options.depth, ignored: (path, stats) => Boolean(stats?.isFile() && !options.accepts(path)) });
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(options.onChange, options.debounceMs ?? 100);
  });
  return watcher;
}
