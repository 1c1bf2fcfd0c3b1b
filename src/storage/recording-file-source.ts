import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { jsonSyntaxProblem } from '../errors.js';
import type { Recording } from '../normalise/index.js';
import { parseRecordingQuickly } from '../normalise/recording-check.js';
import {
  RecordingUnavailableError,
  responseOf,
  type RecordedResponse,
  type RecordingSource,
} from '../replay/recording-source.js';
import { readFolderFile } from './folder-file.js';
import { RECORDING_FOLDER, loadRecordingParser } from './read-recordings.js';

/** The default response cache of {@link RecordingFileSource}: 8 MiB. */
const DEFAULT_RESPONSE_CACHE_BYTES = 8 * 1024 * 1024;

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
  /** Name → response, the least recently served let go first when the bytes run out. */
  readonly #cache: LRUCache<string, RecordedResponse>;
  /** Set by {@link keep} once a response of the folder did not fit: nothing more is kept while it is read. */
  #folderTooLarge = false;

  /** @param cacheBytes bytes of responses (bodies and headers) kept in memory; 0 reads every answer from its file. */
  constructor(dir: string, cacheBytes = DEFAULT_RESPONSE_CACHE_BYTES) {
    this.dir = dir;
    this.cacheBytes = cacheBytes;
    // lru-cache wants a positive size; every response is larger than 1 byte, so 0 keeps none.
    this.#cache = new LRUCache({ maxSize: Math.max(1, this.cacheBytes), sizeCalculation: sizeOf });
  }

  /** Bytes of responses in the cache now. */
  get cachedBytes(): number {
    return this.#cache.calculatedSize;
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
    const atLeast =
      response.body !== undefined ? response.body.length : Math.floor((response.bodyBase64 ?? '').length * 0.75);
    if (this.cachedBytes + atLeast <= this.cacheBytes) {
      const recorded = responseOf(response);
      if (this.cachedBytes + sizeOf(recorded) <= this.cacheBytes) return void this.#cache.set(name, recorded);
    }
    this.#folderTooLarge = true;
    this.#cache.clear();
  }

  /**
   * The response of recording `name`: from the cache at once, or read from its file (a promise).
   * @throws RecordingUnavailableError naming the file when it is gone, unreadable or no longer a valid recording.
   */
  response(name: string): RecordedResponse | Promise<RecordedResponse> {
    // At once, not through a promise: a cached answer costs no microtask.
    return this.#cache.get(name) ?? this.#read(name);
  }

  async #read(name: string): Promise<RecordedResponse> {
    let text: string;
    try {
      const read = await readFolderFile(this.dir, join(this.dir, name), RECORDING_FOLDER);
      if (read.problem !== undefined) throw new RecordingUnavailableError(name, `its file is ${read.problem}`);
      text = read.text;
    } catch (error) {
      if (error instanceof RecordingUnavailableError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new RecordingUnavailableError(
        name,
        code === 'ENOENT'
          ? `its file is gone from ${this.dir} (ENOENT)`
          : `its file in ${this.dir} cannot be read (${code ?? (error as Error).message})`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RecordingUnavailableError(name, `its file is now ${jsonSyntaxProblem(error, text)}`);
    }
    let parsed = parseRecordingQuickly(value, name);
    if (!parsed.ok) parsed = (await loadRecordingParser())(value, name);
    if (!parsed.ok)
      throw new RecordingUnavailableError(
        name,
        `its file is no longer a valid recording (${parsed.problems.map((p) => `${p.path || 'file'}: ${p.message}`).join('; ')})`,
      );
    const response = responseOf(parsed.recording.response);
    this.#cache.set(name, response);
    return response;
  }
}

/** Approximate bytes a cached response holds: the body, the header text, and a little for the objects. */
function sizeOf(response: RecordedResponse): number {
  let bytes = response.body.byteLength + 128;
  for (const [name, value] of Object.entries(response.headers)) bytes += 2 * (name.length + value.length) + 32;
  return bytes;
}
