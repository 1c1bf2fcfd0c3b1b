import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, readSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { OPERATION_NAMES, type OperationName } from '../contract/core.js';
import { MockvideoError, PREFIX } from '../errors.js';
import { formatRecording, type NamedRecording, type Recording, type RecordingProblem } from '../normalise/index.js';
import { parseRecordingQuickly, type RecordingParse, type RecordingParser } from '../normalise/recording-check.js';
import { RecordingUnavailableError, responseOf, type RecordedResponse, type RecordingSource } from '../replay/recording-source.js';
import { parseRecordingBytes, type ParsedRecordingBytes } from './recording-bytes.js';

/** A recording file name: `<first 12 hex of sha256(matchKey)>-<NNN>.json`, NNN the recorded order under that key. */
export const RECORDING_FILE = /^([0-9a-f]{12})-(\d{3,})\.json$/;

/** The folder of an operation inside a recording folder: `meta/cp` → `meta-cp`. */
export function operationFolder(operation: OperationName): string {
  return operation.replace(/\//g, '-');
}

/** node:crypto's `createHash`, loaded on the first call of {@link keyHash}: importing node:crypto costs ~4 ms of a start, and replay only reads recordings. */
let createHash: (typeof import('node:crypto'))['createHash'] | undefined;

/** The first 12 hex characters of the SHA-256 of a match key. */
export function keyHash(matchKey: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(matchKey).digest('hex').slice(0, 12);
}

/** True when `dir` looks like a recording folder: it holds an operation folder or a recording file. */
export function isRecordingDir(dir: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
    const names = readdirSync(dir);
    return names.some((n) => RECORDING_FILE.test(n)) || OPERATION_NAMES.some((op) => names.includes(operationFolder(op)));
  } catch {
    return false;
  }
}

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

/** Options of {@link RecordingFileSource}. */
export interface RecordingFileSourceOptions {
  /** Bytes of responses (bodies and headers) kept in memory, most recently served first; default 8 MiB. 0 reads every answer from its file. */
  cacheBytes?: number;
}

/** The default response cache of {@link RecordingFileSource}: 8 MiB. */
export const DEFAULT_RESPONSE_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * The responses of a recording folder, read from the recording files when served (the replay
 * index keeps only what matching needs), with a bounded cache of what was served recently. Filled while
 * the folder is read ({@link RecordingFileSource.keep}) when the whole folder fits, so a small folder
 * is served from memory as before, even if its files change or break later; a folder that does not
 * fit starts with an empty cache, which then keeps what is served. Beyond the cache, each answer is
 * read again from its file (the same bytes: the file is the recording).
 *
 * @example
 * const source = new RecordingFileSource('recordings/session1');
 * await source.response('meta-cp/0a1b2c3d4e5f-000.json') // { status, headers, body: Uint8Array }
 */
export class RecordingFileSource implements RecordingSource {
  readonly dir: string;
  readonly cacheBytes: number;
  /**
   * Name → response, oldest first. A hit only marks its entry `used`; room is made by the second-chance
   * ("clock") rule: from the oldest, a used entry is unmarked and moved to the end, an unused one goes.
   * So a hit changes no Map order (moving each hit to the end of a cache of thousands cost ~3% of
   * replay's time), and what was served since the last pass stays.
   */
  readonly #cache = new Map<string, { response: RecordedResponse; bytes: number; used: boolean }>();
  #cachedBytes = 0;
  /** Set by {@link keep} once a response of the folder did not fit: nothing more is kept while it is read. */
  #folderTooLarge = false;

  constructor(dir: string, options: RecordingFileSourceOptions = {}) {
    this.dir = dir;
    this.cacheBytes = options.cacheBytes ?? DEFAULT_RESPONSE_CACHE_BYTES;
  }

  /** Bytes of responses in the cache now. */
  get cachedBytes(): number {
    return this.#cachedBytes;
  }

  /** True while every response offered to {@link keep} has fitted: later ones may still be kept. */
  get keeping(): boolean {
    return !this.#folderTooLarge;
  }

  /**
   * Keeps the response of a recording just read from its file while the folder is read, as long as
   * every response offered so far fits. The first that does not fit empties the cache, and later
   * ones are not kept: the recordings read first are no likelier to be served than the others, and
   * the tens of thousands of small responses of a large folder that would fill the cache are objects
   * every full garbage collection walks (replay of 100,000 recordings: ~30,000 cached responses,
   * 13 MB of the heap's ~25 MB). Served responses fill it then.
   */
  keep(name: string, response: Recording['response']): void {
    if (this.#folderTooLarge) return;
    // At least the body's length (a text's UTF-8 is no shorter than its length; base64 is 4/3 of the bytes): no encoding once full.
    const atLeast = response.body !== undefined ? response.body.length : Math.floor((response.bodyBase64 ?? '').length * 0.75);
    if (this.#cachedBytes + atLeast <= this.cacheBytes) {
      const recorded = responseOf(response);
      const bytes = sizeOf(recorded);
      if (this.#cachedBytes + bytes <= this.cacheBytes) return this.#remember(name, recorded, bytes);
    }
    this.#folderTooLarge = true;
    this.#cache.clear();
    this.#cachedBytes = 0;
  }

  /** The responses in the cache, oldest first: for another source of the same folder to {@link adopt}. */
  cached(): Array<[name: string, response: RecordedResponse]> {
    return Array.from(this.#cache, ([name, entry]) => [name, entry.response]);
  }

  /**
   * Caches responses of this folder another source read (its {@link cached}, e.g. from the worker
   * thread that indexed the folder), in their order, until one does not fit.
   */
  adopt(responses: ReadonlyArray<readonly [name: string, response: RecordedResponse]>): void {
    for (const [name, response] of responses) {
      const bytes = sizeOf(response);
      if (this.#cachedBytes + bytes > this.cacheBytes) break;
      this.#remember(name, response, bytes);
    }
  }

  /**
   * The response of recording `name`: from the cache at once, or read from its file (a promise).
   * @throws RecordingUnavailableError naming the file when it is gone, unreadable or no longer a valid recording.
   */
  response(name: string): RecordedResponse | Promise<RecordedResponse> {
    const cached = this.#cache.get(name);
    if (cached) {
      // At once, not through a promise: a cached answer costs no microtask.
      cached.used = true;
      return cached.response;
    }
    return this.#read(name);
  }

  async #read(name: string): Promise<RecordedResponse> {
    let text: string;
    try {
      text = await readFile(join(this.dir, name), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new RecordingUnavailableError(name, code === 'ENOENT' ? `its file is gone from ${this.dir} (ENOENT)` : `its file in ${this.dir} cannot be read (${code ?? (error as Error).message})`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RecordingUnavailableError(name, `its file is no longer valid JSON (${(error as Error).message})`);
    }
    let parsed = parseRecordingQuickly(value, name);
    if (!parsed.ok) parsed = (await loadRecordingParser())(value, name);
    if (!parsed.ok) throw new RecordingUnavailableError(name, `its file is no longer a valid recording (${parsed.problems.map((p) => `${p.path || 'file'}: ${p.message}`).join('; ')})`);
    const response = responseOf(parsed.recording.response);
    const bytes = sizeOf(response);
    if (bytes <= this.cacheBytes) {
      this.#remember(name, response, bytes);
      // The new entry stays (it fits alone); the others are passed over at most twice.
      for (const [oldest, entry] of this.#cache) {
        if (this.#cachedBytes <= this.cacheBytes) break;
        if (oldest === name) continue;
        this.#cache.delete(oldest);
        if (entry.used) {
          entry.used = false;
          this.#cache.set(oldest, entry);
        } else this.#cachedBytes -= entry.bytes;
      }
    }
    return response;
  }

  #remember(name: string, response: RecordedResponse, bytes: number): void {
    const previous = this.#cache.get(name);
    if (previous) this.#cachedBytes -= previous.bytes;
    this.#cache.delete(name);
    this.#cache.set(name, { response, bytes, used: false });
    this.#cachedBytes += bytes;
  }
}

/** Approximate bytes a cached response holds: the body, the header text, and a little for the objects. */
function sizeOf(response: RecordedResponse): number {
  let bytes = response.body.byteLength + 128;
  for (const [name, value] of Object.entries(response.headers)) bytes += 2 * (name.length + value.length) + 32;
  return bytes;
}

/** write-file-atomic's write, once loaded (see {@link atomicWriter}). */
let writeAtomic: typeof import('write-file-atomic') | undefined;

/**
 * write-file-atomic's asynchronous write (temporary file, then rename; each step in libuv's thread
 * pool, so the event loop never waits for the disk), loaded on the first call: `serve` and `replay`
 * never write recordings.
 *
 * Each write registers an exit handler with signal-exit (to remove its temporary file if the process
 * ends mid-write) and removes it after. When it was the only handler, signal-exit installs its ~15
 * signal listeners and removes them again at every write (~0.2 ms). One handler held here for the
 * life of the process keeps them installed.
 */
function atomicWriter(): typeof import('write-file-atomic') {
  if (!writeAtomic) {
    const require = createRequire(import.meta.url);
    const writeFileAtomic = require('write-file-atomic') as typeof import('write-file-atomic');
    try {
      // The signal-exit that write-file-atomic itself uses (resolved from its folder).
      const signalExit = createRequire(require.resolve('write-file-atomic'))('signal-exit') as { onExit?: (handler: () => void) => () => void };
      signalExit.onExit?.(() => undefined);
    } catch {
      // Another layout of write-file-atomic's dependencies: writes are only slower.
    }
    writeAtomic = writeFileAtomic;
  }
  return writeAtomic;
}

/** How long written recordings wait before they are flushed to the disk together, in milliseconds. */
export const SYNC_BATCH_MS = 1000;

/** How many files of a batch are flushed to the disk at once (leaving libuv's other threads free). */
const SYNC_CONCURRENCY = 2;

/** Options of {@link RecordingWriter}. */
export interface RecordingWriterOptions {
  /** Operations whose existing recordings are removed before the first new one of them is written (`record --only`). */
  replace?: readonly OperationName[];
}

/** A recording handed to {@link RecordingWriter.queue}: its name at once, and when it is in place. */
export interface QueuedRecording {
  /** The file it is written to, in the folder: `meta-cp/0a1b2c3d4e5f-000.json`. */
  name: string;
  /** Resolves once the file is in place; rejects with a {@link RecordingWriteError} when it could not be written. */
  written: Promise<void>;
}

/**
 * Writes recording files into a folder, atomically (write-file-atomic: a temporary file renamed into
 * place, so a crash or kill never leaves a partial file). Numbers recordings of one key in the order
 * they are handed over ({@link queue} or {@link write}), after any already in the folder, and writes
 * them one at a time in that order, starting in a later turn of the event loop (`setImmediate`) and
 * with write-file-atomic's asynchronous write: a recording proxy answers its client first, and the
 * requests that arrive meanwhile are not held up by the disk (creating a file on a busy ext4 takes
 * 0.2 to 1 ms of the kernel's time).
 *
 * A written file is flushed to the disk (fsync) in the background, in batches at most
 * {@link SYNC_BATCH_MS} ms apart, so a recording proxy's client does not wait for the disk.
 * {@link flush} writes what is queued, flushes what is left and waits.
 */
export class RecordingWriter {
  readonly dir: string;
  readonly #next = new Map<string, number>();
  readonly #syncing = new Set<Promise<void>>();
  readonly #unsynced: string[] = [];
  readonly #toSync: Array<[file: string, name: string]> = [];
  #syncTimer: NodeJS.Timeout | undefined;
  readonly #pendingReplace: Set<OperationName>;
  /** Operation folders made by this writer (made again when a write finds one gone). */
  readonly #folders = new Set<string>();
  /** Recordings handed over and not yet written, oldest first. */
  readonly #queue: Array<{ name: string; recording: Recording; done: (error?: RecordingWriteError) => void }> = [];
  /** Resolves when the queue is empty (`undefined` while it is). */
  #idle: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(dir: string, options: RecordingWriterOptions = {}) {
    this.dir = dir;
    this.#pendingReplace = new Set(options.replace ?? []);
    mkdirSync(dir, { recursive: true });
  }

  #reserve(recording: Recording): string {
    const folder = operationFolder(recording.operation);
    if (this.#pendingReplace.delete(recording.operation)) {
      for (const file of safeList(join(this.dir, folder))) if (RECORDING_FILE.test(file)) rmSync(join(this.dir, folder, file));
    }
    const hash = keyHash(recording.matchKey);
    const id = `${folder}/${hash}`;
    let next = this.#next.get(id);
    if (next === undefined) {
      next = 0;
      for (const file of safeList(join(this.dir, folder))) {
        const m = RECORDING_FILE.exec(file);
        if (m && m[1] === hash) next = Math.max(next, Number(m[2]) + 1);
      }
    }
    this.#next.set(id, next + 1);
    return `${folder}/${hash}-${String(next).padStart(3, '0')}.json`;
  }

  /**
   * Hands over one recording: its name is chosen now (the next number of its key), the file is
   * written after the recordings handed over before it, in a later turn of the event loop. Never
   * throws: a failure (here or while writing) rejects `written`.
   */
  queue(recording: Recording): QueuedRecording {
    let name: string;
    try {
      name = this.#reserve(recording);
    } catch (error) {
      return { name: operationFolder(recording.operation), written: Promise.reject(new RecordingWriteError(this.dir, operationFolder(recording.operation), error)) };
    }
    const written = new Promise<void>((resolve, reject) => {
      this.#queue.push({ name, recording, done: (error) => (error ? reject(error) : resolve()) });
    });
    if (this.#queue.length === 1) {
      this.#idle = new Promise((resolve) => (this.#wake = resolve));
      setImmediate(() => void this.#writeNext());
    }
    return { name, written };
  }

  /** Writes the oldest queued recording, then the one after it, until the queue is empty. */
  readonly #writeNext = async (): Promise<void> => {
    const job = this.#queue[0]!;
    try {
      await this.#writeFile(job.name, job.recording);
      job.done();
    } catch (error) {
      job.done(new RecordingWriteError(this.dir, job.name, error));
    }
    this.#queue.shift();
    if (this.#queue.length) void this.#writeNext();
    else {
      this.#idle = undefined;
      this.#wake?.();
    }
  };

  /**
   * Writes one recording; resolves with its name (`meta-cp/0a1b2c3d4e5f-000.json`) once the file is
   * in place (after the recordings queued before it). A folder removed meanwhile is made again.
   *
   * @throws RecordingWriteError when the file cannot be written (disk full `ENOSPC`, a file where a
   * folder should be `ENOTDIR`, `EIO`, `EFBIG`, ...): nothing is left behind, neither the file nor
   * write-file-atomic's temporary file.
   */
  async write(recording: Recording): Promise<string> {
    const { name, written } = this.queue(recording);
    await written;
    return name;
  }

  /** Writes `recording` to `name` in the folder, atomically. @throws the file system's error. */
  async #writeFile(name: string, recording: Recording): Promise<void> {
    const folder = join(this.dir, name, '..');
    const file = join(this.dir, name);
    const text = formatRecording(recording);
    const writeFile = atomicWriter();
    if (!this.#folders.has(folder)) {
      makeFolder(folder);
      this.#folders.add(folder);
    }
    try {
      await writeFile(file, text, { encoding: 'utf8', fsync: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // The folder was removed, or replaced by a file, since it was made: made again (or reported), then written.
      makeFolder(folder);
      await writeFile(file, text, { encoding: 'utf8', fsync: false });
    }
    this.#syncLater(file, name);
  }

  /** Flushes a written file, and its folder (the rename), to the disk without holding up the writer's caller. */
  #syncLater(file: string, name: string): void {
    this.#toSync.push([file, name]);
    // One batch a second at most: a disk flush holds up the renames that follow it on many file
    // systems, so syncing each file as it comes would slow every recorded exchange after it.
    this.#syncTimer ??= setTimeout(() => void this.#syncBatch(), SYNC_BATCH_MS);
  }

  /** Flushes the files written since the last batch, and their folders (the renames), to the disk. */
  #syncBatch(): Promise<void> {
    clearTimeout(this.#syncTimer);
    this.#syncTimer = undefined;
    const batch = this.#toSync.splice(0);
    const sync = async (path: string) => {
      const handle = await open(path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    };
    const done = (async () => {
      // A few at a time: the file system commits flushes that wait together at once, so the batch
      // takes less time and less of the disk's and the processor's (the answers go on meanwhile).
      const failures: Array<string | undefined> = [];
      let next = 0;
      const syncNext = async (): Promise<void> => {
        for (let i = next++; i < batch.length; i = next++) {
          const [file, name] = batch[i]!;
          await sync(file).catch((error: NodeJS.ErrnoException) => void (failures[i] = `${name} (${error.code ?? error.message})`));
        }
      };
      await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, batch.length) }, syncNext));
      for (const failure of failures) if (failure !== undefined) this.#unsynced.push(failure);
      // A folder cannot be opened for syncing everywhere (Windows): the files themselves are what matters.
      for (const folder of new Set(batch.map(([file]) => dirname(file)))) await sync(folder).catch(() => undefined);
    })().finally(() => this.#syncing.delete(done));
    this.#syncing.add(done);
    return done;
  }

  /**
   * Resolves when every recording handed over so far is written and on the disk (fsync), with the names of any that
   * could not be flushed (and why: `meta-cp/0a1b2c3d4e5f-000.json (EIO)`).
   */
  async flush(): Promise<string[]> {
    while (this.#idle) await this.#idle;
    if (this.#toSync.length) void this.#syncBatch();
    while (this.#syncing.size) await Promise.allSettled([...this.#syncing]);
    return this.#unsynced.splice(0);
  }
}

/**
 * A recording that could not be written. `code` is the system error code (`ENOSPC`, `ENOTDIR`,
 * `ENOENT`, `EIO`, `EFBIG`, ...; `EUNKNOWN` when the cause had none), `file` the recording's name in
 * `dir` (`meta-cp/0a1b2c3d4e5f-000.json`), `cause` the original error.
 */
export class RecordingWriteError extends Error {
  readonly code: string;
  readonly dir: string;
  readonly file: string;
  constructor(dir: string, file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
    super(`${PREFIX} Failed to write the recording ${file} into ${dir}: ${code} (${(cause as Error | undefined)?.message ?? String(cause)}).`, { cause });
    this.name = 'RecordingWriteError';
    this.code = code;
    this.dir = dir;
    this.file = file;
  }
}

/**
 * Makes a folder (and its parents) if it is not there.
 * @throws an error with code `ENOTDIR` when something that is not a folder has its name, else mkdir's error.
 */
function makeFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    // mkdir says EEXIST when something that is not a folder has the folder's name.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The file next to the lock that names its owner: `{"pid": 1234, "host": "laptop"}`. */
const LOCK_OWNER_FILE = '.mockvideo.lock.owner';

/** True when the process `pid` runs on this machine (a signal 0 reaches it, or it is someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner of the lock on `dir` when it is a process of this machine that is gone, else `undefined`. */
function deadOwner(dir: string): number | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, LOCK_OWNER_FILE), 'utf8')) as { pid?: unknown; host?: unknown };
    if (typeof owner.pid !== 'number' || owner.host !== hostname() || owner.pid === process.pid) return undefined;
    return isAlive(owner.pid) ? undefined : owner.pid;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure mockvideo may record into `dir`, before the first request: creates it, writes and
 * removes a probe file, and takes a lock (proper-lockfile, whose lock goes stale only when its
 * mtime is 10 s old; it knows no process ids) so that a second `record` on the same folder is
 * refused instead of interleaving files. The lock's owner (pid and host name) is written next to it:
 * a lock whose owner process is gone (killed with `kill -9`) is taken over at once, with a line on
 * stderr saying so. Returns the function that releases the lock.
 *
 * A lock lost while recording (its folder removed or replaced) is reported on stderr, not thrown:
 * the process keeps answering clients. Releasing never throws: a lock that is gone, or a folder
 * that became read-only (`EROFS`), gives one line on stderr, so the end summary is always printed.
 *
 * @throws MockvideoError (`MV_USAGE`) naming the folder and the cause: not writable, or in use.
 */
export async function claimRecordingDir(dir: string): Promise<() => Promise<void>> {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.mockvideo-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    throw new MockvideoError('MV_USAGE', `Cannot record into ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Choose a folder you can write to with --out.`);
  }
  const { lock } = await import('proper-lockfile');
  const lockfilePath = join(dir, '.mockvideo.lock');
  // proper-lockfile's default for a lost lock throws from a timer, which would end the process.
  const onCompromised = (error: Error) =>
    process.stderr.write(`${PREFIX} Lost the lock on ${dir} (${error.message}): was the folder removed? Recording goes on, but another recorder could now write into it.\n`);
  const take = () => lock(dir, { lockfilePath, stale: 10_000, update: 2_000, realpath: false, onCompromised });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const dead = deadOwner(dir);
    if (dead === undefined) throw new MockvideoError('MV_USAGE', `${dir} is being recorded into by another mockvideo process. Stop it first, or record into another folder.`);
    rmSync(lockfilePath, { recursive: true, force: true });
    process.stderr.write(`${PREFIX} Took over the lock on ${dir}: its owner, process ${dead}, is gone (it was stopped without releasing it).\n`);
    try {
      release = await take();
    } catch {
      throw new MockvideoError('MV_USAGE', `${dir} is being recorded into by another mockvideo process. Stop it first, or record into another folder.`);
    }
  }
  try {
    writeFileSync(join(dir, LOCK_OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() }));
  } catch {
    // Without it, a stale lock is taken over after 10 s instead of at once.
  }
  return async () => {
    try {
      await release();
      rmSync(join(dir, LOCK_OWNER_FILE), { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Already lost, or its folder is gone or now a file: nothing is left to release.
      if (code === 'ERELEASED' || code === 'ENOENT' || code === 'ENOTDIR') return;
      process.stderr.write(`${PREFIX} Could not release the lock on ${dir}: ${code ?? (error as Error).message}. The recordings written are whole; remove ${lockfilePath} if a later record refuses the folder.\n`);
    }
  };
}
