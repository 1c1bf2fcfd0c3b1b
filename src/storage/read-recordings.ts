import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import { OPERATION_NAMES, type OperationName } from '../contract/core.js';
import { MockvideoError } from '../errors.js';
import type { NamedRecording, Recording, RecordingProblem } from '../normalise/index.js';
import type { RecordingParse, RecordingParser } from '../normalise/recording-check.js';
import { parseRecordingBytes, type ParsedRecordingBytes } from './recording-bytes.js';
import { RECORDING_FILE, operationFolder } from './recording-names.js';

/** What reading a recording folder gave: the recordings (sorted by name, so recorded order within a key) and every problem. */
export interface RecordingFiles {
  recordings: NamedRecording[];
  problems: RecordingProblem[];
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
export async function readRecordingDir(dir: string, onProgress?: (done: number, total: number, file: string) => void): Promise<RecordingFiles> {
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
export function forEachRecording(dir: string, visit: (named: NamedRecording) => void, parse: RecordingParser, onProgress?: (done: number, total: number, file: string) => void): RecordingProblem[] {
  return walkRecordingFiles(dir, parse, onProgress, () => true, (name, recording) => visit({ name, recording }));
}

/**
 * As {@link forEachRecording} (same files, order, checks and problems), for building a replay index:
 * `visit` gets each valid recording's name, operation and request, and its response only while
 * `responseWanted()` (asked before each file) is true, else `undefined`. A response not wanted need
 * not be decoded: for a folder whose files have non-ASCII bodies this saves most of reading them
 * (see recording-bytes.ts).
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` does not exist or is not a folder.
 */
export function forEachRecordingRequest(
  dir: string,
  visit: (name: string, operation: OperationName, request: Recording['request'], response: Recording['response'] | undefined) => void,
  parse: RecordingParser,
  responseWanted: () => boolean,
  onProgress?: (done: number, total: number, file: string) => void,
): RecordingProblem[] {
  return walkRecordingFiles(dir, parse, onProgress, responseWanted, (name, recording, bodyUndecoded) =>
    visit(name, recording.operation, recording.request, bodyUndecoded ? undefined : recording.response),
  );
}

/** The loop of {@link forEachRecording} and {@link forEachRecordingRequest}; `visit` hears whether the recording's body was left undecoded. */
function walkRecordingFiles(
  dir: string,
  parse: RecordingParser,
  onProgress: ((done: number, total: number, file: string) => void) | undefined,
  bodyWanted: () => boolean,
  visit: (name: string, recording: Recording, bodyUndecoded: boolean) => void,
): RecordingProblem[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new MockvideoError('MV_USAGE', `Cannot read the recording folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Record one with "mockvideo record --upstream URL --out ${dir}".`);
  }
  const problems: RecordingProblem[] = [];
  for (const name of names) if (name.endsWith('.json')) problems.push({ file: name, path: '', message: 'a recording file outside an operation folder; move it into its operation folder (e.g. meta-cp/)' });
  const files = OPERATION_NAMES.filter((operation) => names.includes(operationFolder(operation))).flatMap((operation) => {
    // One folder string per operation, shared by the names of its files (a replay index keeps 100,000 names).
    const folder = operationFolder(operation);
    const prefix = `${folder}/`;
    const folderPath = join(dir, folder);
    return readdirSync(folderPath)
      .sort()
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ operation, folder, prefix, folderPath, file }));
  });
  for (let done = 0; done < files.length; done++) {
    const { operation, folder, prefix, folderPath, file } = files[done]!;
    const name = prefix + file;
    onProgress?.(done + 1, files.length, name);
    if (!RECORDING_FILE.test(file)) {
      problems.push({ file: name, path: '', message: 'not a recording file name (<12 hex>-<NNN>.json)' });
      continue;
    }
    // The file name is plain (checked above): no need to join and normalise a path per file.
    const read = readRecordingFile(folderPath + sep + file, name, parse, bodyWanted());
    if (!read.ok) {
      problems.push(...read.problems);
      continue;
    }
    if (read.recording.operation !== operation) {
      problems.push({ file: name, path: 'operation', message: `"${read.recording.operation}" is not the operation of its folder (${folder})` });
      continue;
    }
    visit(name, read.recording, read.bodyUndecoded);
  }
  return problems;
}

/** One buffer for every file read at start: reading 100,000 files leaves no trail of freed buffers behind. */
let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * The value of a recording file, read into {@link readBuffer} and parsed by {@link parseRecordingBytes}
 * (with `bodyWanted` false, its body may be left undecoded): usually one `read`, as a read of a
 * regular file returns less than asked for only at its end. Should a short read not be the end (its
 * text does not parse), the rest is read before the text is judged, so a file is never judged by a part.
 * @throws the error of `open` or `read` (its `code` names it), or JSON.parse's SyntaxError.
 */
function readJson(path: string, bodyWanted: boolean): ParsedRecordingBytes {
  const fd = openSync(path, 'r');
  try {
    let length = readSync(fd, readBuffer, 0, readBuffer.length, null);
    if (length > 0 && length < readBuffer.length) {
      try {
        return parseRecordingBytes(readBuffer.subarray(0, length), bodyWanted);
      } catch {
        // Read on to the end, then judge the whole text.
      }
    }
    for (;;) {
      if (length === readBuffer.length) {
        const bigger = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(bigger, 0, 0, length);
        readBuffer = bigger;
      }
      const read = readSync(fd, readBuffer, length, readBuffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    const parsed = parseRecordingBytes(readBuffer.subarray(0, length), bodyWanted);
    // A large body grew the buffer: let it go rather than keep it for the life of the process.
    if (readBuffer.length > 1024 * 1024) readBuffer = Buffer.allocUnsafe(64 * 1024);
    return parsed;
  } finally {
    closeSync(fd);
  }
}

/** Reads and checks one recording file with `parse`; `name` is how problems name it; see {@link readJson} for `bodyWanted`. Never throws. */
function readRecordingFile(path: string, name: string, parse: RecordingParser, bodyWanted: boolean): (RecordingParse & { ok: false }) | { ok: true; recording: Recording; bodyUndecoded: boolean } {
  let read: ParsedRecordingBytes;
  try {
    read = readJson(path, bodyWanted);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, problems: [{ file: name, path: '', message: code ? `cannot be read (${code})` : `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = parse(read.value, name);
  return parsed.ok ? { ok: true, recording: parsed.recording, bodyUndecoded: read.bodyUndecoded } : parsed;
}
