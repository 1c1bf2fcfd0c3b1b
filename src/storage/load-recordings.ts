import { existsSync, opendirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATION_NAMES } from '../contract/core.js';
import { MockvideoError, PREFIX, type ErrorCode } from '../errors.js';
import type { NormalisationPolicy, RecordingProblem } from '../normalise/index.js';
import { parseRecordingQuickly, type RecordingParser } from '../normalise/recording-check.js';
import { RecordingIndex, type RecordingIndexData } from '../replay/recording-index.js';
import type { RecordedResponse } from '../replay/recording-source.js';
import { forEachRecordingRequest, loadRecordingParser } from './read-recordings.js';
import { RecordingFileSource } from './recording-file-source.js';
import { operationFolder } from './recording-names.js';

/** Options of {@link loadRecordingIndex}. */
export interface LoadRecordingIndexOptions {
  /** Bytes of responses kept in memory (see `RecordingFileSource`); default 8 MiB. */
  cacheBytes?: number;
  /** Hears each file as it is read (1-based count, total, file). */
  onProgress?: (done: number, total: number, file: string) => void;
  /**
   * How each file's value is checked: by default the quick check without zod (`parseRecordingQuickly`),
   * which names a bad file's problems only as "not a well-formed recording"; the schema's
   * `parseRecording` for its exact problems (see {@link loadCheckedRecordingIndex}).
   */
  parse?: RecordingParser;
}

/**
 * Reads a recording folder into a replay index that keeps only what matching needs; responses are
 * read from the files when served (a bounded cache holds every response when the folder fits in
 * `cacheBytes`, and else starts empty; then it keeps the most recently served). Every file is checked as
 * `parse` (default: the quick check); `problems` lists every bad one (the index then holds the good ones).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 * @example const { index, problems } = loadRecordingIndex('recordings/session1', DEFAULT_POLICY);
 */
export function loadRecordingIndex(dir: string, policy: NormalisationPolicy, options: LoadRecordingIndexOptions = {}): { index: RecordingIndex; problems: RecordingProblem[] } {
  const source = new RecordingFileSource(dir, options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes });
  const index = new RecordingIndex([], policy, source);
  const problems = forEachRecordingRequest(
    dir,
    (name, operation, request, response) => {
      index.addRef(name, operation, request.method, request.query);
      if (response) source.keep(name, response);
    },
    options.parse ?? parseRecordingQuickly,
    // Once the folder does not fit in the cache, no response is kept: none need be decoded.
    () => source.keeping,
    options.onProgress,
  );
  return { index, problems };
}

/**
 * Folders of at least this many recording files are indexed in a worker thread by
 * {@link loadCheckedRecordingIndex}. Indexed in the main thread, 100,000 files left `replay` at
 * 0.85–0.92× of replay of 10 recordings for the rest of the process, in full bench runs (the state
 * that work leaves in V8's main isolate; 0.93–1.01× indexed in a worker: docs/performance.md); and
 * the main thread keeps answering while a large folder reloads (`--watch`). Starting the worker
 * costs 40–50 ms: smaller folders, read in about that time, stay in the main thread.
 */
export const WORKER_INDEX_MIN_FILES = 2000;

/** The worker module, beside this one in dist/ (two folders below the package root, as the CLI bundle is). */
const INDEX_WORKER = new URL('../storage/index-worker.js', import.meta.url);

/** What {@link loadRecordingIndexInWorker} gives its worker thread (index-worker.ts). */
export interface IndexWorkerData {
  dir: string;
  policy: NormalisationPolicy;
  cacheBytes: number | undefined;
  /** Post progress messages. */
  progress: boolean;
}

/** A message of the worker thread of {@link loadRecordingIndexInWorker}. */
export type IndexWorkerMessage =
  | { kind: 'progress'; done: number; total: number; file: string }
  | { kind: 'done'; index: RecordingIndexData; problems: RecordingProblem[]; cached: Array<[string, RecordedResponse]> }
  | { kind: 'error'; code?: ErrorCode; message: string };

/**
 * As {@link loadRecordingIndex} (the quick check), with the folder read and indexed in a worker
 * thread: the main thread only receives the index's typed arrays (see `RecordingIndex.data`) and the
 * responses the worker cached. Progress comes every 500 files and for the last one.
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 * @throws Error when the worker cannot start (the module index-worker.js is missing from dist/: run `npm run build`) or dies.
 */
export function loadRecordingIndexInWorker(dir: string, policy: NormalisationPolicy, options: Omit<LoadRecordingIndexOptions, 'parse'> = {}): Promise<{ index: RecordingIndex; problems: RecordingProblem[] }> {
  return import('node:worker_threads').then(
    ({ Worker }) =>
      new Promise((resolve, reject) => {
        const workerData: IndexWorkerData = { dir, policy, cacheBytes: options.cacheBytes, progress: options.onProgress !== undefined };
        const worker = new Worker(INDEX_WORKER, { workerData });
        let settled = false;
        worker.on('message', (message: IndexWorkerMessage) => {
          if (message.kind === 'progress') return options.onProgress?.(message.done, message.total, message.file);
          settled = true;
          if (message.kind === 'error') {
            const text = message.message.startsWith(`${PREFIX} `) ? message.message.slice(PREFIX.length + 1) : message.message;
            return reject(message.code ? new MockvideoError(message.code, text) : new Error(`${PREFIX} Indexing ${dir} failed: ${text}`));
          }
          const source = new RecordingFileSource(dir, options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes });
          source.adopt(message.cached);
          resolve({ index: RecordingIndex.of(message.index, policy, source), problems: message.problems });
        });
        worker.on('error', (error) => {
          settled = true;
          reject(new Error(`${PREFIX} Indexing ${dir} in a worker thread failed: ${error.message}`));
        });
        worker.on('exit', (code) => {
          if (!settled) reject(new Error(`${PREFIX} The worker thread indexing ${dir} stopped (exit code ${code}) before it was done.`));
        });
      }),
  );
}

/**
 * True when `dir` holds at least `count` recording files (a file of an operation folder): counted
 * until there are that many, without listing a large folder whole. False when it cannot be read.
 */
function holdsAtLeast(dir: string, count: number): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  let found = 0;
  for (const operation of OPERATION_NAMES) {
    const folder = operationFolder(operation);
    if (!names.includes(folder)) continue;
    let entries;
    try {
      entries = opendirSync(join(dir, folder));
    } catch {
      continue;
    }
    try {
      while (entries.readSync() !== null) if (++found >= count) return true;
    } finally {
      entries.closeSync();
    }
  }
  return false;
}

/**
 * True when {@link loadCheckedRecordingIndex} indexes `dir` in a worker thread: it holds at least
 * {@link WORKER_INDEX_MIN_FILES} recording files, and the worker module is there (this module runs
 * from dist/, not from the TypeScript sources).
 */
export function indexedInWorker(dir: string): boolean {
  return holdsAtLeast(dir, WORKER_INDEX_MIN_FILES) && existsSync(fileURLToPath(INDEX_WORKER));
}

/**
 * As {@link loadRecordingIndex}, with each problem in the recording schema's words: the folder is
 * read with the quick check (no zod), and only when some file fails is zod loaded and the folder
 * read again with the schema (a folder with problems is refused anyway, so the second read costs
 * nothing in the common case). A folder of at least {@link WORKER_INDEX_MIN_FILES} files is read and
 * indexed in a worker thread ({@link loadRecordingIndexInWorker}) when this module runs from dist/
 * (from the TypeScript sources, as in unit tests, in the main thread).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 */
export async function loadCheckedRecordingIndex(dir: string, policy: NormalisationPolicy, options: Omit<LoadRecordingIndexOptions, 'parse'> = {}): Promise<{ index: RecordingIndex; problems: RecordingProblem[] }> {
  const quick = indexedInWorker(dir) ? await loadRecordingIndexInWorker(dir, policy, options) : loadRecordingIndex(dir, policy, options);
  if (!quick.problems.length) return quick;
  return loadRecordingIndex(dir, policy, { ...options, parse: await loadRecordingParser() });
}
