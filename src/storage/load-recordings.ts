import type { NormalisationPolicy, RecordingProblem } from '../normalise/index.js';
import { parseRecordingQuickly } from '../normalise/recording-check.js';
import type { RecordingParser } from '../normalise/recording-rules.js';
import { RecordingIndex } from '../replay/recording-index.js';
import { forEachRecording, loadRecordingParser } from './read-recordings.js';
import { RecordingFileSource } from './recording-file-source.js';

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
export function loadRecordingIndex(
  dir: string,
  policy: NormalisationPolicy,
  options: LoadRecordingIndexOptions = {},
): { index: RecordingIndex; problems: RecordingProblem[] } {
  const source = new RecordingFileSource(dir, options.cacheBytes);
  const index = new RecordingIndex([], policy, source);
  const problems = forEachRecording(
    dir,
    ({ name, recording }) => {
      index.add({
        name,
        operation: recording.operation,
        method: recording.request.method,
        query: recording.request.query,
      });
      source.keep(name, recording.response);
    },
    options.parse ?? parseRecordingQuickly,
    options.onProgress,
  );
  return { index, problems };
}

/**
 * As {@link loadRecordingIndex}, with each problem in the recording schema's words: the folder is
 * read with the quick check (no zod), and only when some file fails is zod loaded and the folder
 * read again with the schema (a folder with problems is refused anyway, so the second read costs
 * nothing in the common case).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 */
export async function loadCheckedRecordingIndex(
  dir: string,
  policy: NormalisationPolicy,
  options: Omit<LoadRecordingIndexOptions, 'parse'> = {},
): Promise<{ index: RecordingIndex; problems: RecordingProblem[] }> {
  const quick = loadRecordingIndex(dir, policy, options);
  if (!quick.problems.length) return quick;
  return loadRecordingIndex(dir, policy, { ...options, parse: await loadRecordingParser() });
}
