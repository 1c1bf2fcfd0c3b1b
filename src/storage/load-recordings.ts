import type { NormalisationPolicy, RecordingProblem } from '../normalise/index.js';
import { RecordingIndex } from '../replay/recording-index.js';
import { RecordingFileSource, forEachRecording } from './recordings.js';

/** Options of {@link loadRecordingIndex}. */
export interface LoadRecordingIndexOptions {
  /** Bytes of responses kept in memory (see `RecordingFileSource`); default 8 MiB. */
  cacheBytes?: number;
  /** Hears each file as it is read (1-based count, total, file). */
  onProgress?: (done: number, total: number, file: string) => void;
}

/**
 * Reads a recording folder into a replay index that keeps only what matching needs; responses are
 * read from the files when served (a bounded cache, filled while reading, keeps the first
 * `cacheBytes` of them and then the most recently served). Every file is checked as
 * `readRecordingDir` checks it; `problems` lists every bad one (the index then holds the good ones).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 * @example const { index, problems } = loadRecordingIndex('recordings/session1', DEFAULT_POLICY);
 */
export function loadRecordingIndex(dir: string, policy: NormalisationPolicy, options: LoadRecordingIndexOptions = {}): { index: RecordingIndex; problems: RecordingProblem[] } {
  const source = new RecordingFileSource(dir, options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes });
  const index = new RecordingIndex([], policy, source);
  const problems = forEachRecording(
    dir,
    ({ name, recording }) => {
      index.add({ name, operation: recording.operation, method: recording.request.method, query: recording.request.query });
      source.keep(name, recording.response);
    },
    options.onProgress,
  );
  return { index, problems };
}
