import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_NAMES } from '../contract/core.js';
import { MockvideoError, jsonSyntaxProblem } from '../errors.js';
import type { NamedRecording, RecordingProblem } from '../normalise/index.js';
import type { RecordingParser } from '../normalise/recording-rules.js';
import { leavesFolder, readFolderFileSync } from './folder-file.js';
import { RECORDING_FILE, operationFolder } from './recording-names.js';

/** What reading a recording folder gave: the recordings (sorted by name, so recorded order within a key) and every problem. */
export interface RecordingFiles {
  recordings: NamedRecording[];
  problems: RecordingProblem[];
}

/** How problems name the folder a recording file must stay in. */
export const RECORDING_FOLDER = 'recording folder';

/**
 * The value of recording file `name` (relative to `dir`), or why there is none, in one line that
 * never quotes the file: it is no regular file or leaves the folder (see `readFolderFileSync`), cannot
 * be read, or is not JSON.
 */
function recordingValue(dir: string, name: string): { value: unknown; problem?: undefined } | { problem: string } {
  let read;
  try {
    read = readFolderFileSync(dir, join(dir, name), RECORDING_FOLDER);
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})` };
  }
  if (read.problem !== undefined) return read;
  try {
    return { value: JSON.parse(read.text) };
  } catch (error) {
    return { problem: jsonSyntaxProblem(error, read.text) };
  }
}

/**
 * The schema's check of a recording file value (`parseRecording`, with zod), loaded on the first
 * call: `replay` checks with {@link parseRecordingQuickly} and needs it only for a file that fails.
 */
export async function loadRecordingParser(): Promise<RecordingParser> {
  return (await import('../normalise/recording-schema.js')).parseRecording;
}

/**
 * Reads every recording file of a recording folder (`<dir>/<operation folder>/<hash>-<NNN>.json`).
 * Never throws for a bad file: invalid JSON, a wrong shape, a file in the wrong folder or with a
 * wrong name all come back as problems naming the file (relative to `dir`), in the schema's words.
 *
 * `onProgress` hears each file as it is read (1-based count, total), for progress bars.
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 */
export async function readRecordingDir(
  dir: string,
  onProgress?: (done: number, total: number, file: string) => void,
): Promise<RecordingFiles> {
  const recordings: NamedRecording[] = [];
  const problems = forEachRecording(dir, (named) => recordings.push(named), await loadRecordingParser(), onProgress);
  return { recordings, problems };
}

/**
 * Reads the recording files of a folder one at a time, in name order (so recorded order within a
 * key), and hands each valid one to `visit` without keeping it: a folder of 100,000 recordings
 * need not fit in memory at once. Checks each file's value with `parse` (the schema's
 * `parseRecording`, or the quick {@link parseRecordingQuickly}) and returns every problem, naming
 * the file (relative to `dir`).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 */
export function forEachRecording(
  dir: string,
  visit: (named: NamedRecording) => void,
  parse: RecordingParser,
  onProgress?: (done: number, total: number, file: string) => void,
): RecordingProblem[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot read the recording folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Record one with "mockvideo record --upstream URL --out ${dir}".`,
    );
  }
  const problems: RecordingProblem[] = [];
  for (const name of names)
    if (name.endsWith('.json'))
      problems.push({
        file: name,
        path: '',
        message: 'a recording file outside an operation folder; move it into its operation folder (e.g. meta-cp/)',
      });
  const files = OPERATION_NAMES.filter((operation) => names.includes(operationFolder(operation))).flatMap(
    (operation) => {
      const folder = operationFolder(operation);
      const leaves = leavesFolder(dir, join(dir, folder), RECORDING_FOLDER);
      if (leaves) {
        problems.push({ file: folder, path: '', message: leaves });
        return [];
      }
      return readdirSync(join(dir, folder))
        .sort()
        .filter((file) => file.endsWith('.json'))
        .map((file) => ({ operation, folder, file }));
    },
  );
  for (let done = 0; done < files.length; done++) {
    const { operation, folder, file } = files[done]!;
    const name = `${folder}/${file}`;
    onProgress?.(done + 1, files.length, name);
    if (!RECORDING_FILE.test(file)) {
      problems.push({ file: name, path: '', message: 'not a recording file name (<12 hex>-<NNN>.json)' });
      continue;
    }
    const value = recordingValue(dir, name);
    if (value.problem !== undefined) {
      problems.push({ file: name, path: '', message: value.problem });
      continue;
    }
    const read = parse(value.value, name);
    if (!read.ok) {
      problems.push(...read.problems);
      continue;
    }
    if (read.recording.operation !== operation) {
      problems.push({
        file: name,
        path: 'operation',
        message: `"${read.recording.operation}" is not the operation of its folder (${folder})`,
      });
      continue;
    }
    visit({ name, recording: read.recording });
  }
  return problems;
}
