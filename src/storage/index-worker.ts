/**
 * The worker thread of `loadRecordingIndexInWorker` (load-recordings.ts): indexes a recording folder
 * with `loadRecordingIndex` and posts the index's plain data (its buffers transferred), the problems
 * and the responses it cached. Messages are {@link IndexWorkerMessage}s.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MockvideoError } from '../errors.js';
import { buffersOf } from '../replay/compact.js';
import { loadRecordingIndex, type IndexWorkerData, type IndexWorkerMessage } from './load-recordings.js';
import type { RecordingFileSource } from './recording-file-source.js';

/** Progress is posted at most this often (in files), and for the last file. */
const PROGRESS_EVERY = 500;

const { dir, policy, cacheBytes, progress } = workerData as IndexWorkerData;
const post = (message: IndexWorkerMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);
try {
  const { index, problems } = loadRecordingIndex(dir, policy, {
    ...(cacheBytes === undefined ? {} : { cacheBytes }),
    ...(progress
      ? {
          onProgress: (done: number, total: number, file: string) => {
            if (done % PROGRESS_EVERY === 0 || done === total) post({ kind: 'progress', done, total, file });
          },
        }
      : {}),
  });
  const data = index.data();
  // The cached responses are copied, not transferred: a body may be a view of a buffer other bodies share (Node's pool).
  post({ kind: 'done', index: data, problems, cached: (index.source as RecordingFileSource).cached() }, buffersOf(data));
} catch (error) {
  post({ kind: 'error', ...(error instanceof MockvideoError ? { code: error.code } : {}), message: (error as Error).message });
}

