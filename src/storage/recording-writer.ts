import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';
import type { OperationName } from '../contract/core.js';
import { formatRecording, type Recording } from '../normalise/index.js';
import { addRecordedOrigin } from './recorded-origins.js';
import { RECORDING_FILE, keyHash, operationFolder } from './recording-names.js';
import { RecordingWriteError } from './recording-write-error.js';
import { writeFileAtomically } from './write-file-atomically.js';

/** How long written recordings wait before they are flushed to the disk together, in milliseconds. */
const SYNC_BATCH_MS = 1000;

/** How many files of a batch are flushed to the disk at once (leaving libuv's other threads free). */
const SYNC_CONCURRENCY = 2;

/** Options of {@link RecordingWriter}. */
export interface RecordingWriterOptions {
  /** Operations whose existing recordings are removed before the first new one of them is written (`record --only`). */
  replace?: readonly OperationName[];
  /** The upstream recorded from (a URL): its origin is added to the folder's `.mockvideo-origins` (see recorded-origins.ts), so `scenario from-recordings` knows which URLs in bodies are the service's own. */
  upstream?: string;
}

/** A recording handed to {@link RecordingWriter.queue}: its name at once, and when it is in place. */
export interface QueuedRecording {
  /** The file it is written to, in the folder: `meta-cp/0a1b2c3d4e5f-000.json`. */
  name: string;
  /** Resolves once the file is in place; rejects with a {@link RecordingWriteError} when it could not be written. */
  written: Promise<void>;
}

/**
 * Writes recording files into a folder, atomically ({@link writeFileAtomically}: a temporary file
 * renamed into place once every byte is on the file system, so a full disk, a crash or a kill never
 * leaves a partial file). Numbers recordings of one key in the order
 * they are handed over ({@link queue} or {@link write}), after any already in the folder, and writes
 * them one at a time in that order, starting in a later turn of the event loop (`setImmediate`) and
 * with an asynchronous write: a recording proxy answers its client first, and the
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
  /** Settles when the last batch of flushes to the disk is done. */
  #syncing: Promise<void> = Promise.resolve();
  readonly #unsynced: string[] = [];
  readonly #toSync: Array<[file: string, name: string]> = [];
  #syncTimer: NodeJS.Timeout | undefined;
  readonly #pendingReplace: Set<OperationName>;
  /** Settles when the last recording handed over is written (or failed): the next one is written after it. */
  #last: Promise<unknown> = Promise.resolve();
  /** The upstream whose origin is still to be added to the folder (with the first recording: a recorder that never records leaves no file). */
  #upstream: string | undefined;

  constructor(dir: string, options: RecordingWriterOptions = {}) {
    this.dir = dir;
    this.#pendingReplace = new Set(options.replace ?? []);
    mkdirSync(dir, { recursive: true });
    this.#upstream = options.upstream;
  }

  #reserve(recording: Recording): string {
    const folder = operationFolder(recording.operation);
    if (this.#pendingReplace.delete(recording.operation)) {
      for (const file of safeList(join(this.dir, folder)))
        if (RECORDING_FILE.test(file)) rmSync(join(this.dir, folder, file));
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
      if (this.#upstream !== undefined) {
        addRecordedOrigin(this.dir, this.#upstream);
        this.#upstream = undefined;
      }
    } catch (error) {
      return {
        name: operationFolder(recording.operation),
        written: Promise.reject(new RecordingWriteError(this.dir, operationFolder(recording.operation), error)),
      };
    }
    const written = this.#last
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(async () => {
        const file = join(this.dir, name);
        const text = formatRecording(recording);
        // Its folder is made when a write finds it missing (the first of its operation, or removed
        // since), never before each write: a mkdir waits for the disk's flushes, holding up the answers.
        await writeFileAtomically(file, text).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
          makeFolder(dirname(file));
          await writeFileAtomically(file, text);
        });
        // Flushed to the disk later, in a batch: one a second at most, as a flush holds up the renames
        // that follow it on many file systems (syncing each file would slow every exchange after it).
        this.#toSync.push([file, name]);
        this.#syncTimer ??= setTimeout(() => this.#syncBatch(), SYNC_BATCH_MS);
      })
      .catch((error: unknown) => {
        throw new RecordingWriteError(this.dir, name, error);
      });
    this.#last = written.catch(() => undefined);
    return { name, written };
  }

  /**
   * Writes one recording; resolves with its name (`meta-cp/0a1b2c3d4e5f-000.json`) once the file is
   * in place (after the recordings queued before it). A folder removed meanwhile is made again.
   *
   * @throws RecordingWriteError when the file cannot be written (disk full `ENOSPC`, a file where a
   * folder should be `ENOTDIR`, `EIO`, `EFBIG`, ...): nothing is left behind, neither the file nor
   * its temporary file. A short write (a nearly full disk) is an `ENOSPC`.
   */
  async write(recording: Recording): Promise<string> {
    const { name, written } = this.queue(recording);
    await written;
    return name;
  }

  /** Flushes the files written since the last batch, and their folders (the renames), to the disk. */
  #syncBatch(): void {
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
    // A few at a time: the file system commits flushes that wait together at once, so the batch
    // takes less time and less of the disk's and the processor's (the answers go on meanwhile).
    const limit = pLimit(SYNC_CONCURRENCY);
    this.#syncing = this.#syncing.then(async () => {
      const failures = await Promise.all(
        batch.map(([file, name]) =>
          limit(() => sync(file)).then(
            () => undefined,
            (error: NodeJS.ErrnoException) => `${name} (${error.code ?? error.message})`,
          ),
        ),
      );
      for (const failure of failures) if (failure !== undefined) this.#unsynced.push(failure);
      // A folder cannot be opened for syncing everywhere (Windows): the files themselves are what matters.
      for (const folder of new Set(batch.map(([file]) => dirname(file)))) await sync(folder).catch(() => undefined);
    });
  }

  /**
   * Resolves when every recording handed over so far is written and on the disk (fsync), with the names of any that
   * could not be flushed (and why: `meta-cp/0a1b2c3d4e5f-000.json (EIO)`).
   */
  async flush(): Promise<string[]> {
    for (let last; last !== this.#last;) await (last = this.#last);
    if (this.#toSync.length) this.#syncBatch();
    await this.#syncing;
    return this.#unsynced.splice(0);
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
