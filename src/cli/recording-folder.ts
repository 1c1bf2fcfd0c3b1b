import { RecordingError } from '../errors.js';
import type { NamedRecording } from '../normalise/index.js';

/**
 * Reads a recording folder whole (`onProgress(done, total, file)` after each file).
 * @throws RecordingError listing its bad files; MockvideoError when it is not a folder.
 */
export async function recordingsOf(
  dir: string,
  onProgress?: (done: number, total: number, file: string) => void,
): Promise<NamedRecording[]> {
  const { readRecordingDir } = await import('../storage/read-recordings.js');
  const { recordings, problems } = await readRecordingDir(dir, onProgress);
  if (problems.length) throw new RecordingError(dir, problems);
  return recordings;
}
