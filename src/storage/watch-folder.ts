import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** Options of {@link watchFolder}. */
export interface WatchFolderOptions {
  dir: string;
  /** How many folder levels below `dir` to watch: 0 for its files only. */
  depth: number;
  /** Which files count, by path (others, such as an atomic write's temporary file, are ignored). */
  accepts: (file: string) => boolean;
  /** Called once the changes settle. */
  onChange: () => void;
  /** Milliseconds of quiet after the last change (editors and tools write in bursts); default 100. */
  debounceMs?: number;
}

/** A running {@link watchFolder}; `close()` stops it (no `onChange` after that). */
export interface FolderWatcher {
  close: () => Promise<void>;
}

/**
 * Watches a folder and the folders below it (down to `depth` levels, including folders created
 * later) and calls `onChange` once a burst of added, changed, renamed or removed files that
 * `accepts` settles. Nothing is reported for what exists at the start.
 *
 * One `fs.watch` per folder, never per file: what changed is not reported, every caller reads the
 * folder again. (chokidar, used before, puts a watcher on every file: for a replay of 100,000
 * recordings that was about 15 s of CPU after the start and 330 MB more memory.) A folder that
 * cannot be watched (removed meanwhile, no permission) is left out; its removal counts as a change.
 */
export function watchFolder(options: WatchFolderOptions): FolderWatcher {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const changed = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(options.onChange, options.debounceMs ?? 100);
  };
  const forget = (folder: string) => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(`${folder}/`) || path.startsWith(`${folder}\\`)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };
  const isFolder = (path: string) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  };
  const add = (folder: string, level: number) => {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, (_event, name) => {
        if (name === null) return changed();
        const path = join(folder, name.toString());
        if (level < options.depth && (watchers.has(path) || isFolder(path))) {
          // A folder below appeared, went or was renamed: watch what is there now.
          if (isFolder(path)) add(path, level + 1);
          else forget(path);
          return changed();
        }
        if (options.accepts(path)) changed();
      });
    } catch {
      return;
    }
    watcher.on('error', () => {
      forget(folder);
      changed();
    });
    watchers.set(folder, watcher);
    if (level >= options.depth) return;
    let entries: string[] = [];
    try {
      entries = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      // Removed meanwhile: its watcher reports it.
    }
    for (const name of entries) add(join(folder, name), level + 1);
  };
  add(options.dir, 0);
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
